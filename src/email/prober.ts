// Talks SMTP to a domain's MX hosts in preference order: EHLO (HELO as a fallback), STARTTLS
// when offered, MAIL FROM, RCPT TO, QUIT. Never DATA. Moves to the next MX host only when a host
// could not be talked to at all (connection refused, timeout, 421 banner).
import type { EmailConfig } from './config.ts';
import type { DnsClient } from './dns.ts';
import { classifyRcptReply, type RcptReason, type RcptVerdict } from './classify.ts';
import { DeadlineError, type DomainBuckets, type HostSemaphores } from './politeness.ts';
import { isPublicAddress } from './ssrf.ts';
import { SmtpError, SmtpSession, type SmtpReply, type SocksProxy } from './smtp-session.ts';

export interface RcptResult {
  verdict: RcptVerdict;
  reason: RcptReason | 'unreachable' | 'mx_not_public' | 'dropped' | 'timeout' | 'deadline';
  reply?: SmtpReply;
  /** The MX host that answered, when one did. */
  host: string | null;
}

export interface ProbeDeps {
  config: EmailConfig;
  dns: DnsClient;
  hostSlots: HostSemaphores;
  domainBuckets: DomainBuckets;
  socks?: SocksProxy;
}

/**
 * What a session asks: `initial` RCPTs (sent together with MAIL FROM when the server allows
 * PIPELINING), then optionally more, decided from the first answers.
 */
export interface Conversation {
  initial: string[];
  followUp?: (results: RcptResult[], rcpt: (address: string) => Promise<RcptResult>) => Promise<RcptResult[]>;
}

type Attempt = { kind: 'done'; results: RcptResult[] } | { kind: 'next'; failure: RcptResult };

const MAX_ADDRESSES_PER_HOST = 2;

function unknown(reason: RcptResult['reason'], host: string | null, reply?: SmtpReply): RcptResult {
  return { verdict: 'unknown', reason, host, reply };
}

export class SmtpProber {
  constructor(private readonly deps: ProbeDeps) {}

  /**
   * Opens a session to the first MX host that can be talked to and runs `conversation` there.
   * Returns the RCPT results, or a single unknown result when no host could be talked to.
   */
  async converse(domain: string, hosts: string[], signal: AbortSignal, conversation: Conversation): Promise<RcptResult[]> {
    let failure: RcptResult = unknown('unreachable', null);
    for (const host of hosts) {
      if (signal.aborted) return [unknown('deadline', null)];
      const lookup = await this.deps.dns.addresses(host);
      if (lookup.kind !== 'ok') continue;
      const addresses = lookup.addresses;
      if (!this.deps.config.allowPrivateMx && !addresses.every(isPublicAddress)) {
        // One non-public address is enough to refuse the host: which one we would reach is not ours to choose.
        failure = unknown('mx_not_public', host);
        continue;
      }
      for (const ip of addresses.slice(0, MAX_ADDRESSES_PER_HOST)) {
        const attempt = await this.attempt(domain, host, ip, signal, conversation);
        if (attempt.kind === 'done') return attempt.results;
        failure = attempt.failure;
        if (failure.reason === 'deadline') return [failure];
      }
    }
    return [failure];
  }

  private async attempt(domain: string, host: string, ip: string, signal: AbortSignal, conversation: Conversation, useTls = true): Promise<Attempt> {
    const { config } = this.deps;
    let release: (() => void) | undefined;
    let session: SmtpSession | undefined;
    const results: RcptResult[] = [];
    let stage: 'connect' | 'greeting' | 'tls' | 'rcpt' = 'connect';
    try {
      release = await this.deps.hostSlots.acquire(host, signal);
      await this.deps.domainBuckets.take(domain, signal);
      const opened = await SmtpSession.open({
        ip,
        port: config.smtpPort,
        connectTimeoutMs: config.connectTimeoutMs,
        commandTimeoutMs: config.commandTimeoutMs,
        socks: this.deps.socks,
        signal,
      });
      session = opened.session;
      stage = 'greeting';
      if (opened.banner.code !== 220) return { kind: 'next', failure: { ...classifySessionReply(opened.banner), host } };
      let ehlo = await session.command(`EHLO ${config.heloName}`);
      if (ehlo.code !== 250) {
        const helo = await session.command(`HELO ${config.heloName}`);
        if (helo.code !== 250) return { kind: 'next', failure: { ...classifySessionReply(helo), host } };
      } else if (useTls && /\bSTARTTLS\b/i.test(ehlo.text)) {
        const starttls = await session.command('STARTTLS');
        if (starttls.code === 220) {
          stage = 'tls';
          await session.startTls(host);
          stage = 'greeting';
          ehlo = await session.command(`EHLO ${config.heloName}`);
          if (ehlo.code !== 250) return { kind: 'next', failure: { ...classifySessionReply(ehlo), host } };
        }
      }
      const toResult = (reply: SmtpReply): RcptResult => {
        const { verdict, reason } = classifyRcptReply(reply);
        const result: RcptResult = { verdict, reason, reply, host };
        results.push(result);
        return result;
      };
      const mailCommand = `MAIL FROM:<${config.mailFrom}>`;
      const rcptCommands = conversation.initial.map((address) => `RCPT TO:<${address}>`);
      let mail: SmtpReply;
      if (/\bPIPELINING\b/i.test(ehlo.text)) {
        stage = 'rcpt';
        const [mailReply, ...rcptReplies] = await session.pipeline([mailCommand, ...rcptCommands]);
        mail = mailReply!;
        // A refused sender is about us (blocklisting, policy), the same on every MX: stop here.
        if (mail.code >= 300) return { kind: 'done', results: [{ ...classifySessionReply(mail), host }] };
        rcptReplies.forEach(toResult);
      } else {
        mail = await session.command(mailCommand);
        if (mail.code >= 300) return { kind: 'done', results: [{ ...classifySessionReply(mail), host }] };
        stage = 'rcpt';
        for (const command of rcptCommands) toResult(await session.command(command));
      }
      const rcpt = async (address: string) => toResult(await session!.command(`RCPT TO:<${address}>`));
      if (conversation.followUp) await conversation.followUp([...results], rcpt);
      session.quit();
      return { kind: 'done', results: [...results] };
    } catch (error) {
      if (error instanceof DeadlineError || signal.aborted) return { kind: 'next', failure: unknown('deadline', host) };
      if (stage === 'tls') {
        // A broken TLS stack is common; senders then deliver in plain text, and so do we.
        session?.close();
        release?.();
        release = undefined;
        return this.attempt(domain, host, ip, signal, conversation, false);
      }
      const kind = error instanceof SmtpError ? error.kind : 'dropped';
      const reason = kind === 'timeout' ? 'timeout' : stage === 'connect' ? 'unreachable' : 'dropped';
      // Once a RCPT was asked, a failure is an answer about this conversation, not a reason to try elsewhere.
      if (stage === 'rcpt') return { kind: 'done', results: [...results, unknown(reason, host)] };
      return { kind: 'next', failure: unknown(reason, host) };
    } finally {
      session?.close();
      release?.();
    }
  }
}

/** A non-RCPT reply (banner, EHLO, MAIL) that stopped the session: never says anything about the mailbox. */
function classifySessionReply(reply: SmtpReply): Omit<RcptResult, 'host'> {
  const { reason } = classifyRcptReply(reply);
  return { verdict: 'unknown', reason: reason === 'user_unknown' || reason === 'mailbox_disabled' || reason === 'accepted' ? 'unclassified' : reason, reply };
}
