// Settings of the email validation engine, from EMAIL_* environment variables (docs/email.md).
import { hostname } from 'node:os';
import { loadOutboundSettings, type OutboundSetting } from './outbound.ts';

export interface EmailConfig {
  /** DNS servers ("ip" or "ip:port"); empty: the system's. */
  dnsServers: string[];
  dnsTimeoutMs: number;
  /**
   * A name every working resolver finds, asked when a domain gets NXDOMAIN: denied too, the resolver
   * is broken (sinkholed…) and the answer is unknown, not invalid. Empty: NXDOMAIN is always believed.
   */
  dnsCanary: string;
  /** Name sent in EHLO; should have matching forward and reverse DNS for the probing address. */
  heloName: string;
  /** Envelope sender used in probes (MAIL FROM). */
  mailFrom: string;
  smtpPort: number;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  /** socks5://[user:pass@]host:port, or undefined to connect directly (the default identity's way out). */
  socksProxy: string | undefined;
  /** Outbound identities (EMAIL_OUTBOUND / EMAIL_OUTBOUND_FILE); null: one, from heloName, mailFrom and socksProxy. */
  outbound: OutboundSetting[] | null;
  /** How long an identity refused with a permanent (5xx) reply is not used where it was refused. */
  quarantineMs: number;
  /** The same for a temporary (4xx) refusal, at most quarantineMs. */
  quarantineTemporaryMs: number;
  /** Whole-validation deadline; past it the answer is unknown. */
  deadlineMs: number;
  /** How long a definite result (valid, invalid, catch_all…) is served from cache. */
  resultTtlMs: number;
  /** How long a domain's catch-all verdict is remembered. */
  catchAllTtlMs: number;
  /** How long MX lookups are remembered. */
  dnsCacheTtlMs: number;
  /** Concurrent SMTP sessions per MX host and outbound identity, for all instances together. */
  maxSessionsPerMxHost: number;
  /** New SMTP sessions per recipient domain per minute (token bucket, burst = a tenth, at least 5). */
  domainSessionsPerMinute: number;
  /** RCPT commands per MX host and outbound identity per minute (token bucket like the domains'); 0: not limited. */
  hostRcptsPerMinute: number;
  /** Where the limits are counted: auto (Redis when configured, else PostgreSQL, else this process), redis, database, or local (this process only). */
  probeLimits: ProbeLimitsBackend;
  /** How long a connection slot or a place in line outlives the last heartbeat of the instance holding it. */
  probeLeaseTtlMs: number;
  /** Prefix of the Redis keys of the shared limits (deployments sharing one Redis keep apart). */
  probeLimitsNamespace: string;
  /** Transactions one SMTP connection may carry before it is closed (1: never reuse a connection). */
  sessionReuseMax: number;
  /** Recipients asked in one transaction at the most (addresses of one domain waiting together). */
  rcptsPerTransaction: number;
  /** How long an unused connection is kept open for the next validation to the same MX host. */
  sessionIdleMs: number;
  /** TEST ONLY: probe MX hosts on loopback/private addresses (SSRF guard off). Never enable in production. */
  allowPrivateMx: boolean;
  /** Greylisted addresses are checked again after this delay (0 disables the re-check). */
  greylistRecheckMs: number;
  /** How often the re-check worker looks for due addresses. */
  recheckPollMs: number;
  /** Deliveries an address needs on a catch-all domain to count as valid_catch_all. */
  engagementMinDeliveries: number;
  /** Operator secret every delivery webhook must present; unset: webhooks are off. */
  webhookToken: string | undefined;
  /** Mailgun webhook signing key: when set, Mailgun calls must carry a valid signature. */
  mailgunSigningKey: string | undefined;
  /** SendGrid signed event webhook verification key (base64): when set, SendGrid calls must be signed. */
  sendgridVerificationKey: string | undefined;
}

export type ProbeLimitsBackend = 'auto' | 'redis' | 'database' | 'local';
const BACKENDS: readonly ProbeLimitsBackend[] = ['auto', 'redis', 'database', 'local'];

function backend(raw: string | undefined): ProbeLimitsBackend {
  if (raw === undefined || raw === '') return 'auto';
  if (!BACKENDS.includes(raw as ProbeLimitsBackend))
    throw new Error(`EMAIL_PROBE_LIMITS must be one of ${BACKENDS.join(', ')}, got "${raw}"`);
  return raw as ProbeLimitsBackend;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/**
 * EMAIL_DNS_CANARY: a host name, or "off". The default, example.com, is reserved by IANA (RFC 2606)
 * and published for good, so only a broken resolver denies it.
 */
function dnsCanary(raw: string | undefined): string {
  const value = (raw ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (value === '') return DEFAULT_DNS_CANARY;
  if (value === 'off') return '';
  if (!/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)+$/.test(value))
    throw new Error(`EMAIL_DNS_CANARY must be a host name (or off), got "${raw}"`);
  return value;
}

export const DEFAULT_DNS_CANARY = 'example.com';

export function loadEmailConfig(env: NodeJS.ProcessEnv = process.env): EmailConfig {
  const heloName = env.EMAIL_HELO_NAME || hostname();
  return {
    dnsServers: (env.EMAIL_DNS_SERVERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    dnsTimeoutMs: int(env, 'EMAIL_DNS_TIMEOUT_MS', 3000),
    dnsCanary: dnsCanary(env.EMAIL_DNS_CANARY),
    heloName,
    mailFrom: env.EMAIL_MAIL_FROM || `verify@${heloName}`,
    smtpPort: int(env, 'EMAIL_SMTP_PORT', 25),
    connectTimeoutMs: int(env, 'EMAIL_CONNECT_TIMEOUT_MS', 5000),
    commandTimeoutMs: int(env, 'EMAIL_COMMAND_TIMEOUT_MS', 8000),
    socksProxy: env.EMAIL_SOCKS_PROXY || undefined,
    outbound: loadOutboundSettings(env),
    quarantineMs: int(env, 'EMAIL_QUARANTINE_MS', 6 * 3600_000),
    quarantineTemporaryMs: int(env, 'EMAIL_QUARANTINE_TEMPORARY_MS', 15 * 60_000),
    deadlineMs: int(env, 'EMAIL_DEADLINE_MS', 20_000),
    resultTtlMs: int(env, 'EMAIL_RESULT_TTL_MS', 6 * 3600_000),
    catchAllTtlMs: int(env, 'EMAIL_CATCH_ALL_TTL_MS', 24 * 3600_000),
    dnsCacheTtlMs: int(env, 'EMAIL_DNS_CACHE_TTL_MS', 300_000),
    maxSessionsPerMxHost: Math.max(1, int(env, 'EMAIL_MAX_SESSIONS_PER_MX_HOST', 5)),
    domainSessionsPerMinute: Math.max(1, int(env, 'EMAIL_DOMAIN_SESSIONS_PER_MINUTE', 300)),
    hostRcptsPerMinute: int(env, 'EMAIL_HOST_RCPTS_PER_MINUTE', 0),
    probeLimits: backend(env.EMAIL_PROBE_LIMITS),
    probeLeaseTtlMs: Math.max(1000, int(env, 'EMAIL_PROBE_LEASE_TTL_MS', 15_000)),
    probeLimitsNamespace: env.EMAIL_PROBE_LIMITS_NAMESPACE || 'leadbase',
    sessionReuseMax: Math.max(1, int(env, 'EMAIL_SESSION_REUSE_MAX', 20)),
    sessionIdleMs: int(env, 'EMAIL_SESSION_IDLE_MS', 5000),
    rcptsPerTransaction: Math.min(100, Math.max(1, int(env, 'EMAIL_RCPTS_PER_TRANSACTION', 50))),
    allowPrivateMx: env.EMAIL_ALLOW_PRIVATE_MX_TEST_ONLY === '1',
    greylistRecheckMs: int(env, 'EMAIL_GREYLIST_RECHECK_MS', 10 * 60_000),
    recheckPollMs: Math.max(100, int(env, 'EMAIL_RECHECK_POLL_MS', 30_000)),
    engagementMinDeliveries: Math.max(1, int(env, 'EMAIL_ENGAGEMENT_MIN_DELIVERIES', 3)),
    webhookToken: env.EMAIL_WEBHOOK_TOKEN || undefined,
    mailgunSigningKey: env.EMAIL_MAILGUN_SIGNING_KEY || undefined,
    sendgridVerificationKey: env.EMAIL_SENDGRID_VERIFICATION_KEY || undefined,
  };
}

/** What a composition root may override: settings, and how certificates are fetched (tests serve them locally). */
export type EmailOverrides = Partial<EmailConfig> & { fetchText?: (url: string) => Promise<string> };
