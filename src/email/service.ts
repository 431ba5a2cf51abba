// Email validation: syntax → MX lookup → SMTP probe → classification, with catch-all detection,
// engagement evidence, provider/gateway identification and company enrichment.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, DialectName } from '../db/database.ts';
import { EMPTY_EMAIL_COMPANY, type EmailStatus, type EmailValidation } from '../contract/email.ts';
import type { CompanyEnrichment } from '../companies/enrichment.ts';
import { loadEmailConfig, type EmailConfig, type EmailOverrides } from './config.ts';
import { DnsClient } from './dns.ts';
import { EngagementStore, isEngagedAddress } from './engagement.ts';
import { isFreeMailDomain } from './free-mail.ts';
import { DNS_FAILING_REASON, MALFORMED_MESSAGE, messageFor } from './messages.ts';
import { limitSettings, LocalProbeLimits, type ProbeLimits } from './probe-limits.ts';
import { SmtpProber, type RcptResult } from './prober.ts';
import { RcptBatches } from './rcpt-batches.ts';
import { OutboundPool, outboundIdentities } from './outbound.ts';
import { identifyMx, type MxIdentity } from './providers.ts';
import { MAX_RECHECK_ATTEMPTS, RecheckStore } from './rechecks.ts';
import { parseAddress } from './syntax.ts';
import { addressExtensions, NO_EXTENSIONS, type AddressExtensions } from './extensions.ts';
import { SnsVerifier, type FetchText } from './webhooks/verify.ts';
import { TtlCache } from './ttl-cache.ts';

export { emailValidationCost } from './messages.ts';
export type { EmailValidation } from '../contract/email.ts';

export interface EmailValidateInput {
  email: string;
  first_name?: string;
  last_name?: string;
}

export type EnrichmentByDomain = (domain: string) => Promise<CompanyEnrichment | null>;

export interface EmailValidationServiceDeps {
  db: Db;
  dialect: DialectName;
  /** The EMAIL_* settings as loaded once by the process's configuration (src/platform/config.ts); defaults when absent. */
  settings?: EmailConfig;
  /** Overrides of those settings (tests pass their fake DNS server, port…). */
  config?: Partial<EmailConfig>;
  logger?: Logger;
  /** Company fields for a domain (the companies domain); absent: company fields are null. */
  enrichmentByDomain?: EnrichmentByDomain;
  /** Start the greylist re-check worker (default true). */
  recheckWorker?: boolean;
  /** Makes the probe limits from the engine's settings (shared by instances: limits-backend.ts); absent: counted in this process. Closed with the service. */
  limits?: (config: EmailConfig) => ProbeLimits;
  /** GETs a URL's text: Amazon SNS signing certificates and subscription confirmations (tests serve them locally). */
  fetchText?: FetchText;
}

/** How a result was obtained; not on the wire, but known (logs, tests, the route). */
export interface ValidationDetail {
  validation: EmailValidation;
  /** When the answer was found (earlier than now when served from a cache). */
  checkedAt: number;
  source: 'live' | 'cache' | 'recheck';
  /** Why, in a word: user_unknown, greylisted, nxdomain, catch_all, deadline… */
  reason: string;
}

interface MxFacts {
  mx_record: string | null;
  mx_provider: string | null;
  mx_security_gateway: boolean;
}

const NO_MX: MxFacts = { mx_record: null, mx_provider: null, mx_security_gateway: false };

export class EmailValidationService {
  readonly config: EmailConfig;
  readonly engagement: EngagementStore;
  readonly rechecks: RecheckStore;
  readonly sns: SnsVerifier;
  readonly fetchText: FetchText;
  private readonly dns: DnsClient;
  private readonly prober: SmtpProber;
  private readonly batches: RcptBatches;
  /** The outbound identities and their quarantines. */
  readonly outbound: OutboundPool;
  private readonly limits: ProbeLimits;
  private readonly results = new TtlCache<{ validation: EmailValidation; reason: string }>(200_000);
  private readonly catchAll = new TtlCache<boolean>(50_000);
  private readonly inFlight = new Map<string, Promise<ValidationDetail>>();
  private readonly catchAllInFlight = new Map<string, Promise<boolean | null>>();
  private readonly operators = new WeakMap<string[], { mx: MxFacts; identity: MxIdentity }>();
  private recheckTimer: NodeJS.Timeout | undefined;
  private recheckRunning: Promise<void> | undefined;

  constructor(private readonly deps: EmailValidationServiceDeps) {
    const { fetchText: _ignored, ...overrides } = (deps.config ?? {}) as EmailOverrides;
    // The environment is read once, by loadConfig; the engine only takes what it is given.
    this.config = { ...(deps.settings ?? loadEmailConfig({})), ...overrides };
    this.engagement = new EngagementStore(deps.db);
    this.rechecks = new RecheckStore(deps.db);
    this.fetchText = deps.fetchText ?? fetchTextOverHttps;
    this.sns = new SnsVerifier(this.fetchText);
    this.dns = new DnsClient({
      servers: this.config.dnsServers,
      timeoutMs: this.config.dnsTimeoutMs,
      cacheTtlMs: this.config.dnsCacheTtlMs,
      canary: this.config.dnsCanary,
      onResolverState: ({ failing, canary, code }) =>
        failing
          ? deps.logger?.warn(
              { canary, code },
              'DNS resolver denies the canary name: NXDOMAIN answers are not believed (addresses answered unknown) until it finds it',
            )
          : deps.logger?.info({ canary }, 'DNS resolver finds the canary name again: NXDOMAIN answers are believed'),
    });
    this.outbound = new OutboundPool(outboundIdentities(this.config.outbound, this.config), {
      quarantineMs: this.config.quarantineMs,
      temporaryMs: this.config.quarantineTemporaryMs,
      db: deps.db,
      onQuarantine: (identity, scope, reply) =>
        deps.logger?.warn({ identity, scope, code: reply.code, reply: reply.text }, 'outbound identity refused as a sender: quarantined'),
      onStoreError: (error) => deps.logger?.warn({ err: error }, 'outbound quarantines: the database could not be used'),
    });
    this.limits = deps.limits?.(this.config) ?? new LocalProbeLimits(limitSettings(this.config));
    this.prober = new SmtpProber({
      config: this.config,
      dns: this.dns,
      limits: this.limits,
      outbound: this.outbound,
    });
    this.batches = new RcptBatches(this.prober, this.config.rcptsPerTransaction, this.config.maxSessionsPerMxHost);
    if (deps.recheckWorker !== false && this.config.greylistRecheckMs > 0) {
      this.recheckTimer = setInterval(() => void this.runDueRechecks(), this.config.recheckPollMs);
      this.recheckTimer.unref();
    }
  }

  async validate(input: EmailValidateInput): Promise<EmailValidation> {
    return (await this.validateDetailed(input)).validation;
  }

  async validateDetailed(input: EmailValidateInput, options: { fresh?: boolean } = {}): Promise<ValidationDetail> {
    const parsed = parseAddress(input.email);
    if (!parsed) {
      return {
        validation: {
          email: input.email.trim(),
          email_status: 'invalid',
          message: MALFORMED_MESSAGE,
          is_domain_catch_all: false,
          ...NO_MX,
          ...EMPTY_EMAIL_COMPANY,
          ...NO_EXTENSIONS,
        },
        checkedAt: Date.now(),
        source: 'live',
        reason: 'malformed',
      };
    }
    const key = parsed.address.toLowerCase();
    const email = input.email.trim();
    // Worked out from the address alone, on every answer (a result stored before they existed has none).
    const extensions = addressExtensions(parsed.local, parsed.domain);
    if (!options.fresh) {
      const cached = this.results.get(key);
      if (cached)
        return {
          validation: { ...cached.value.validation, ...extensions, email },
          checkedAt: cached.storedAt,
          source: 'cache',
          reason: cached.value.reason,
        };
      const rechecked = await this.rechecks.result(key);
      if (rechecked && Date.now() - rechecked.checkedAt < this.config.resultTtlMs) {
        return {
          validation: { ...rechecked.validation, ...extensions, email },
          checkedAt: rechecked.checkedAt,
          source: 'recheck',
          reason: 'rechecked',
        };
      }
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.validateLive(parsed.local, parsed.domain, key, extensions).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const detail = await pending;
    return { ...detail, validation: { ...detail.validation, ...extensions, email } };
  }

  /** The whole pipeline under the global deadline; past it the answer is unknown. */
  private async validateLive(local: string, domain: string, key: string, extensions: AddressExtensions): Promise<ValidationDetail> {
    const controller = new AbortController();
    const company = this.company(domain);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<{ status: EmailStatus; reason: string; mx: MxFacts; catchAll: boolean }>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ status: 'unknown', reason: 'deadline', mx: NO_MX, catchAll: false });
      }, this.config.deadlineMs);
    });
    let outcome;
    try {
      outcome = await Promise.race([this.classify(local, domain, key, controller.signal), deadline]);
    } finally {
      // Only the deadline aborts: a finished pipeline has nothing left open, and an abort costs a DOMException.
      clearTimeout(timer);
    }
    const validation: EmailValidation = {
      email: key,
      email_status: outcome.status,
      message: messageFor(outcome.status, outcome.reason),
      is_domain_catch_all: outcome.catchAll,
      ...outcome.mx,
      ...((await company) ?? EMPTY_EMAIL_COMPANY),
      ...extensions,
    };
    const checkedAt = Date.now();
    if (outcome.status !== 'unknown') this.results.set(key, { validation, reason: outcome.reason }, this.config.resultTtlMs, checkedAt);
    // A greylisting or rate-limiting host is asked again later by the recheck loop.
    if ((outcome.reason === 'greylisted' || outcome.reason === 'rate_limited') && this.config.greylistRecheckMs > 0) {
      await this.rechecks
        .schedule(key, domain, checkedAt + this.config.greylistRecheckMs)
        .catch((error) => this.deps.logger?.warn({ err: error }, 'could not queue a greylist re-check'));
    }
    this.deps.logger?.debug({ domain, status: outcome.status, reason: outcome.reason }, 'email validated');
    return { validation, checkedAt, source: 'live', reason: outcome.reason };
  }

  private async company(domain: string): Promise<CompanyEnrichment | null> {
    if (!this.deps.enrichmentByDomain || isFreeMailDomain(domain)) return null;
    try {
      return await this.deps.enrichmentByDomain(domain);
    } catch (error) {
      this.deps.logger?.warn({ err: error, domain }, 'company enrichment failed');
      return null;
    }
  }

  private async classify(local: string, domain: string, key: string, signal: AbortSignal) {
    const lookup = await this.dns.lookupMx(domain);
    if (lookup.kind === 'nxdomain' || lookup.kind === 'null-mx' || lookup.kind === 'no-mail') {
      return { status: 'invalid' as EmailStatus, reason: lookup.kind, mx: NO_MX, catchAll: false };
    }
    if (lookup.kind === 'error') return { status: 'unknown' as EmailStatus, reason: `dns_${lookup.code}`, mx: NO_MX, catchAll: false };
    if (lookup.kind === 'resolver-failing')
      return { status: 'unknown' as EmailStatus, reason: DNS_FAILING_REASON, mx: NO_MX, catchAll: false };
    const { mx, identity } = this.operatorOf(lookup.hosts);
    const address = `${local}@${domain}`;

    let knownCatchAll = this.catchAll.get(domain)?.value;
    // A cold burst to one domain asks whether it accepts everyone once: the others wait for that verdict.
    const inFlight = knownCatchAll === undefined ? this.catchAllInFlight.get(domain) : undefined;
    if (inFlight) knownCatchAll = (await inFlight) ?? undefined;
    if (knownCatchAll === true) return this.catchAllOutcome(key, mx, 'catch_all_cached');

    let target: RcptResult;
    let random: RcptResult | null = null;
    if (identity.oneRcptPerSession) {
      // Microsoft punishes a second RCPT in a session: one address per connection.
      [target] = await this.prober.converse(domain, lookup.hosts, signal, { initial: [address], noReuse: true });
      if (target!.verdict === 'accepted' && knownCatchAll === undefined) {
        const verdict = await this.detectCatchAll(domain, lookup.hosts, signal);
        random = verdict === null ? null : { verdict: verdict ? 'accepted' : 'rejected', reason: 'accepted', host: null };
      }
    } else {
      // The probe address rides along in the same transaction: its answer is worth caching even
      // when the mailbox itself is rejected.
      let announce: ((catchAll: boolean | null) => void) | undefined;
      if (knownCatchAll === undefined && !this.catchAllInFlight.has(domain)) {
        this.catchAllInFlight.set(domain, new Promise<boolean | null>((resolve) => (announce = resolve)));
      }
      try {
        // Other validations of the domain waiting at the same time ride in the same transaction.
        const asked = await this.batches.ask(
          domain,
          lookup.hosts,
          address,
          knownCatchAll === undefined ? randomAddress(domain) : null,
          signal,
        );
        target = asked.target;
        random = asked.probe;
        if (random && random.verdict !== 'unknown') this.catchAll.set(domain, random.verdict === 'accepted', this.config.catchAllTtlMs);
      } finally {
        if (announce) {
          this.catchAllInFlight.delete(domain);
          announce(random && random.verdict !== 'unknown' ? random.verdict === 'accepted' : null);
        }
      }
    }

    if (target!.verdict === 'rejected') return { status: 'invalid' as EmailStatus, reason: target!.reason, mx, catchAll: false };
    if (target!.verdict === 'unknown')
      return { status: 'unknown' as EmailStatus, reason: target!.reason, mx, catchAll: this.catchAll.get(domain)?.value ?? false };
    if (knownCatchAll === false || random?.verdict === 'rejected')
      return { status: 'valid' as EmailStatus, reason: 'accepted', mx, catchAll: false };
    if (random?.verdict === 'accepted') return this.catchAllOutcome(key, mx, 'catch_all');
    // The mailbox was accepted but whether the domain accepts everyone could not be told
    // (a greylisted probe address is re-checked like a greylisted mailbox).
    return {
      status: 'unknown' as EmailStatus,
      reason: random?.reason === 'greylisted' ? 'greylisted' : 'catch_all_undetermined',
      mx,
      catchAll: false,
    };
  }

  /** Who runs these MX hosts, worked out once per cached MX answer (the same array while it is cached). */
  private operatorOf(hosts: string[]): { mx: MxFacts; identity: MxIdentity } {
    let known = this.operators.get(hosts);
    if (!known) {
      const identity = identifyMx(hosts);
      known = {
        identity,
        mx: { mx_record: hosts[0] ?? null, mx_provider: identity.provider, mx_security_gateway: identity.gateway !== null },
      };
      this.operators.set(hosts, known);
    }
    return known;
  }

  /** Probes a random address in its own session, once per domain at a time; remembers the answer. */
  private detectCatchAll(domain: string, hosts: string[], signal: AbortSignal): Promise<boolean | null> {
    let pending = this.catchAllInFlight.get(domain);
    if (!pending) {
      pending = this.prober
        .converse(domain, hosts, signal, { initial: [randomAddress(domain)], noReuse: true })
        .then(([result]) => {
          if (!result || result.verdict === 'unknown') return null;
          const catchAll = result.verdict === 'accepted';
          this.catchAll.set(domain, catchAll, this.config.catchAllTtlMs);
          return catchAll;
        })
        .finally(() => this.catchAllInFlight.delete(domain));
      this.catchAllInFlight.set(domain, pending);
    }
    return pending;
  }

  private async catchAllOutcome(key: string, mx: MxFacts, reason: string) {
    const counts = await this.engagement.counts(key);
    const engaged = isEngagedAddress(counts, this.config.engagementMinDeliveries);
    return {
      status: (engaged ? 'valid_catch_all' : 'catch_all') as EmailStatus,
      reason: engaged ? 'engagement' : reason,
      mx,
      catchAll: true,
    };
  }

  /** One pass of the greylist re-check worker: re-validates due addresses and stores the answers. */
  async runDueRechecks(now = Date.now()): Promise<number> {
    if (this.recheckRunning) return 0;
    let done = 0;
    const run = async () => {
      const due = await this.rechecks.claimDue(now, 20);
      for (const item of due) {
        const detail = await this.validateDetailed({ email: item.address }, { fresh: true });
        const attempts = item.attempts + 1;
        if ((detail.reason === 'greylisted' || detail.reason === 'rate_limited') && attempts < MAX_RECHECK_ATTEMPTS) {
          await this.rechecks.retryLater(item.address, attempts, Date.now() + this.config.greylistRecheckMs * (attempts + 1));
        } else {
          await this.rechecks.complete(item.address, detail.validation, detail.checkedAt);
        }
        done += 1;
      }
    };
    this.recheckRunning = run()
      .catch((error) => this.deps.logger?.warn({ err: error }, 'greylist re-check pass failed'))
      .finally(() => (this.recheckRunning = undefined));
    await this.recheckRunning;
    return done;
  }

  /** The DNS resolver for /readyz: 'unavailable' while it denies the canary name (src/email/dns.ts). */
  dnsState(): Promise<'ok' | 'unavailable'> {
    return this.dns.resolverState();
  }

  /** Forgets what memory holds (results, catch-all verdicts, DNS, quarantines, kept connections): a cold start, for benchmarks and tests. */
  clearCaches(): void {
    this.results.clear();
    this.catchAll.clear();
    this.dns.clear();
    this.outbound.forget();
    this.prober.closeIdle();
  }

  async close(): Promise<void> {
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    await this.recheckRunning;
    this.prober.closeIdle();
    await this.outbound.flush();
    await this.limits.close();
  }
}

/**
 * A local part nobody uses, the same for a domain every time: greylisting servers key on
 * (client, sender, recipient), so a stable probe address passes greylisting on a re-check.
 */
function randomAddress(domain: string): string {
  const digest = createHash('sha256').update(`leadbase catch-all probe ${domain}`).digest();
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const local = Array.from(digest.subarray(0, 14), (b) => letters[b % letters.length]).join('');
  return `${local}@${domain}`;
}

async function fetchTextOverHttps(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'error' });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.text();
}

export function createEmailValidationService(deps: EmailValidationServiceDeps): EmailValidationService {
  return new EmailValidationService(deps);
}
