// Talks SMTP to a domain's MX hosts in preference order: EHLO (HELO as a fallback), STARTTLS
// when offered, MAIL FROM, RCPT TO, QUIT. Never DATA. Moves to the next MX host only when a host
// could not be talked to at all (connection refused, timeout, 421 banner). Each conversation goes
// through one outbound identity (outbound.ts); a reply that refuses that identity as a sender
// (refusals.ts) quarantines it, and the conversation is tried again through the next one.
import type { EmailConfig } from './config.ts';
import type { DnsClient } from './dns.ts';
import { classifyRcptReply, type RcptReason, type RcptVerdict } from './classify.ts';
import { DeadlineError } from './politeness.ts';
import type { ProbeLimits } from './probe-limits.ts';
import { blockOf, type Block } from './refusals.ts';
import type { OutboundIdentity, OutboundPool } from './outbound.ts';
import { identifyMx } from './providers.ts';
import { isPublicAddress } from '../net/ssrf.ts';
import { SmtpError, SmtpSession, type SmtpReply } from './smtp-session.ts';
import { TtlCache } from './ttl-cache.ts';

export interface RcptResult {
  verdict: RcptVerdict;
  reason: RcptReason | 'unreachable' | 'mx_not_public' | 'dropped' | 'timeout' | 'deadline' | 'outbound_blocked';
  reply?: SmtpReply;
  /** The MX host that answered, when one did. */
  host: string | null;
}

export interface ProbeDeps {
  config: EmailConfig;
  dns: DnsClient;
  /**
   * Connection slots per MX host, sessions per domain, RCPTs per host: in this process or shared by
   * every instance; each outbound identity has budgets of its own (a mail server counts per sending address).
   */
  limits: ProbeLimits;
  /** The outbound identities and their quarantines. */
  outbound: OutboundPool;
}

/**
 * What a session asks: `initial` RCPTs (sent together with MAIL FROM when the server allows
 * PIPELINING), then optionally more, decided from the first answers.
 */
export interface Conversation {
  initial: string[];
  /**
   * One transaction per connection (providers that punish several RCPTs per session): a kept
   * connection is never used, but a spare one (connected, greeted, unused) is, and one is made
   * ready for the next validation of a burst.
   */
  noReuse?: boolean;
  /** Open a new connection even when one is kept. */
  fresh?: boolean;
  /** The RCPT list, asked for when the transaction starts (a batch closes its list then); else `initial`. */
  recipients?: () => string[];
  followUp?: (results: RcptResult[], rcpt: (address: string) => Promise<RcptResult>) => Promise<RcptResult[]>;
}

/** What a validation waiting for a host gets: a slot for a new connection, or a kept connection with its slot. */
interface Handed {
  session?: SmtpSession;
  release: () => void;
}

/** A validation in line for a host (see SmtpProber.waitForHost). */
interface HostWaiter {
  /** The MX address it will talk to: only a connection to that address can be handed to it. */
  key: string;
  /** One transaction per connection: only a spare that never carried one will do. */
  unusedOnly: boolean;
  /** Hands it a connection; false when it no longer waits. */
  hand(handed: Required<Handed>): boolean;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** A reply that refused the identity as a sender, and how widely. */
interface Refusal {
  reply: SmtpReply;
  block: Block;
}

type Attempt = { kind: 'done'; results: RcptResult[] } | { kind: 'next'; failure: RcptResult } | { kind: 'blocked'; refusal: Refusal };

/** Where an attempt stands: what a failure means depends on it (see afterFailure). */
type Stage = 'connect' | 'greeting' | 'tls' | 'rcpt';

/** One attempt's progress and what it holds. */
interface AttemptState {
  stage: Stage;
  session?: SmtpSession;
  /** Gives the host slot back (with the session, or by the idle pool when the session is kept). */
  release?: () => void;
  /** The session came from the idle pool: the server may have closed it meanwhile. */
  kept: boolean;
  /** The session went back to the idle pool: it is not closed. */
  parked: boolean;
  unbind: () => void;
  results: RcptResult[];
}

/** What to do after an attempt failed with `error`: try again (another way), or the answer. */
function afterFailure(
  state: AttemptState,
  error: unknown,
  signal: AbortSignal,
  host: string,
): Exclude<Attempt, { kind: 'blocked' }> | 'again-without-tls' | 'again-on-a-fresh-connection' {
  if (error instanceof DeadlineError || signal.aborted) return { kind: 'next', failure: unknown('deadline', host) };
  // A broken TLS stack is common; senders then deliver in plain text, and so do we.
  if (state.stage === 'tls') return 'again-without-tls';
  // The server closed an idle connection we had kept: start over on a fresh one.
  if (state.session && state.kept && state.results.length === 0) return 'again-on-a-fresh-connection';
  const kind = error instanceof SmtpError ? error.kind : 'dropped';
  const reason = kind === 'timeout' ? 'timeout' : state.stage === 'connect' ? 'unreachable' : 'dropped';
  // Once a RCPT was asked, a failure is an answer about this conversation, not a reason to try elsewhere.
  if (state.stage === 'rcpt') return { kind: 'done', results: [...state.results, unknown(reason, host)] };
  return { kind: 'next', failure: unknown(reason, host) };
}

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
    const { outbound } = this.deps;
    await outbound.ready();
    // Quarantines are per mail provider (or gateway, or MX host): one provider's ban says nothing of another's.
    const scope = quarantineScope(hosts);
    const tried = new Set<string>();
    let refused: SmtpReply | undefined;
    for (;;) {
      if (signal.aborted) return [unknown('deadline', null)];
      const identity = outbound.pick(scope, tried);
      if (!identity) {
        // Every identity is refused here: unknown, never invalid, and nothing is asked.
        const reply = refused ?? parseReplyText(outbound.anyQuarantineReply(scope));
        return [unknown('outbound_blocked', hosts[0] ?? null, reply)];
      }
      tried.add(identity.id);
      const outcome = await this.converseAs(identity, domain, hosts, signal, conversation);
      if (!('refusal' in outcome)) return outcome;
      refused = outcome.refusal.reply;
      outbound.quarantine(identity.id, scope, outcome.refusal.reply, outcome.refusal.block);
    }
  }

  /** The conversation through one identity: the answers, or the reply that refused the identity. */
  private async converseAs(
    identity: OutboundIdentity,
    domain: string,
    hosts: string[],
    signal: AbortSignal,
    conversation: Conversation,
  ): Promise<RcptResult[] | { refusal: Refusal }> {
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
        const attempt = await this.attempt(identity, domain, host, ip, signal, conversation);
        if (attempt.kind === 'done') return attempt.results;
        if (attempt.kind === 'blocked') return { refusal: attempt.refusal };
        failure = attempt.failure;
        if (failure.reason === 'deadline') return [failure];
      }
    }
    return [failure];
  }

  /**
   * One try at one MX address, as stages: connect (a kept connection, or a host slot and a new
   * one), greeting (banner, EHLO, STARTTLS: `tls` while inside it), then the transaction (`rcpt`).
   * What a failure means depends on the stage it happened in (see afterFailure); everything the
   * attempt holds is given back in one place (finish).
   */
  private async attempt(
    identity: OutboundIdentity,
    domain: string,
    host: string,
    ip: string,
    signal: AbortSignal,
    conversation: Conversation,
    useTls = true,
  ): Promise<Attempt> {
    const state: AttemptState = { stage: 'connect', kept: false, parked: false, unbind: () => {}, results: [] };
    try {
      const stopped = await this.connectAndGreet(state, identity, domain, host, ip, signal, conversation, useTls);
      if (stopped) {
        // A reply that stopped the session before any transaction: one that refuses our identity
        // (a 554 banner, blocklist wording) ends its turn; any other sends us to the next MX host.
        const block = blockOf(stopped.reply, stopped.atConnect);
        if (block) return { kind: 'blocked', refusal: { reply: stopped.reply, block } };
        return { kind: 'next', failure: { ...classifySessionReply(stopped.reply), host } };
      }
      return await this.transact(state, identity, host, poolKeyOf(identity, host, ip), conversation, signal);
    } catch (error) {
      const next = afterFailure(state, error, signal, host);
      if (next === 'again-without-tls' || next === 'again-on-a-fresh-connection') {
        this.finish(state);
        const again = next === 'again-on-a-fresh-connection' ? { ...conversation, fresh: true } : conversation;
        return this.attempt(identity, domain, host, ip, signal, again, next === 'again-without-tls' ? false : useTls);
      }
      return next;
    } finally {
      this.finish(state);
    }
  }

  /** Stages connect and greeting; returns the reply that refused us before any transaction (`atConnect`: the banner), or null. */
  private async connectAndGreet(
    state: AttemptState,
    identity: OutboundIdentity,
    domain: string,
    host: string,
    ip: string,
    signal: AbortSignal,
    conversation: Conversation,
    useTls: boolean,
  ): Promise<{ reply: SmtpReply; atConnect: boolean } | null> {
    const poolKey = poolKeyOf(identity, host, ip);
    const kept = conversation.fresh ? undefined : this.takeIdle(poolKey, conversation.noReuse === true);
    if (kept) {
      state.session = kept.session;
      state.release = kept.release;
      state.kept = true;
    } else {
      const handed = await this.waitForHost(identity, host, poolKey, conversation, signal);
      state.release = handed.release;
      if (handed.session) {
        state.session = handed.session;
        state.kept = true;
      }
    }
    // The domain's budget counts transactions: it is asked while a new connection opens and the
    // host greets, so that its round trip to a shared store is off the session's path, and granted
    // before anything but the connection reaches the host (EHLO waits for it, and MAIL FROM with it).
    const budget = this.deps.limits.takeSession(domain, signal, identity.id).then(() => {
      if (conversation.noReuse) this.prepareSpare(identity, host, ip, poolKey, useTls);
    });
    budget.catch(() => {}); // awaited below; a connection refused first leaves it unheard
    if (state.session) {
      await budget;
      state.unbind = state.session.bindAbort(signal);
      state.stage = 'greeting';
      return null;
    }
    const opened = await SmtpSession.open(this.connectOptions(identity, ip, signal));
    state.session = opened.session;
    state.unbind = opened.session.bindAbort(signal);
    state.stage = 'greeting';
    await budget;
    if (opened.banner.code !== 220) return { reply: opened.banner, atConnect: true };
    const refused = await this.greet(opened.session, identity, host, useTls, (inTls) => (state.stage = inTls ? 'tls' : 'greeting'));
    return refused && { reply: refused, atConnect: false };
  }

  /** Stage rcpt: MAIL FROM and the conversation's RCPTs (pipelined when the server allows), then the connection is kept or closed. */
  private async transact(
    state: AttemptState,
    identity: OutboundIdentity,
    host: string,
    poolKey: string,
    conversation: Conversation,
    signal: AbortSignal,
  ): Promise<Attempt> {
    const session = state.session!;
    const initial = conversation.recipients?.() ?? conversation.initial;
    // A UTF-8 local part needs RFC 6531: sent only to a server that offers SMTPUTF8. To one that
    // does not, nothing is sent and the answer is unknown (its refusal would be about our command).
    const utf8 = initial.some((address) => NON_ASCII.test(address));
    if (utf8 && !session.smtpUtf8) {
      this.endTransaction(state, identity, host, poolKey, conversation);
      return { kind: 'done', results: initial.map(() => unknown('utf8_unsupported', host)) };
    }
    const { limits } = this.deps;
    await limits.takeRcpts(host, initial.length, signal, identity.id);
    const reused = session.transactions > 0;
    const toResult = (reply: SmtpReply): RcptResult => {
      const { verdict, reason } = classifyRcptReply(reply);
      const result: RcptResult = { verdict, reason, reply, host };
      state.results.push(result);
      return result;
    };
    // A reused connection starts a new transaction with RSET (RFC 5321 4.1.1.5).
    const opening = [...(reused ? ['RSET'] : []), `MAIL FROM:<${identity.mailFrom}>${utf8 ? ' SMTPUTF8' : ''}`];
    const rcptCommands = initial.map((address) => `RCPT TO:<${address}>`);
    session.transactions += 1;
    if (session.pipelining) {
      const replies = await session.pipeline([...opening, ...rcptCommands]);
      state.stage = 'rcpt';
      const mail = replies[opening.length - 1];
      if (reused && replies[0].code !== 250) return { kind: 'next', failure: { ...classifySessionReply(replies[0]), host } };
      // A refused sender is about us (blocklisting, policy), the same on every MX: stop here.
      if (mail.code >= 300) return this.senderRefused(state, host, mail);
      replies.slice(opening.length).forEach(toResult);
    } else {
      for (const command of opening) {
        const mail = await session.command(command);
        if (mail.code >= 300) return this.senderRefused(state, host, mail);
      }
      state.stage = 'rcpt';
      for (const command of rcptCommands) toResult(await session.command(command));
    }
    let refused = this.refusalAmong(state);
    if (!refused && conversation.followUp) {
      const rcpt = async (address: string) => {
        await limits.takeRcpts(host, 1, signal, identity.id);
        return toResult(await session.command(`RCPT TO:<${address}>`));
      };
      await conversation.followUp([...state.results], rcpt);
      refused = this.refusalAmong(state);
    }
    if (refused) {
      // The identity is refused here: none of these answers counts, and the connection is not kept.
      session.quit();
      return { kind: 'blocked', refusal: refused };
    }
    this.endTransaction(state, identity, host, poolKey, conversation);
    return { kind: 'done', results: [...state.results] };
  }

  /** The first RCPT answer that refuses our identity rather than speaking of the mailbox. */
  private refusalAmong(state: AttemptState): Refusal | null {
    for (const result of state.results) {
      const block = result.reply && blockOf(result.reply);
      if (block) return { reply: result.reply!, block };
    }
    return null;
  }

  /** A transaction done with: its connection goes to the next in line or the idle pool, else it says QUIT. */
  private endTransaction(state: AttemptState, identity: OutboundIdentity, host: string, poolKey: string, conversation: Conversation): void {
    state.unbind();
    state.parked = this.park(lineKeyOf(identity, host), poolKey, state.session!, state.release, conversation);
    if (!state.parked) state.session!.quit();
  }

  /** Gives back what the attempt holds: the abort binding, and (unless kept for reuse) the connection and its host slot. */
  private finish(state: AttemptState): void {
    state.unbind();
    if (state.parked) return;
    state.session?.close();
    state.release?.();
    state.session = undefined;
    state.release = undefined;
  }

  /** MAIL FROM refused: a refusal of our identity is tried through another; else the answer (unknown). */
  private senderRefused(state: AttemptState, host: string, mail: SmtpReply): Attempt {
    const block = blockOf(mail);
    if (block) {
      state.session?.quit();
      return { kind: 'blocked', refusal: { reply: mail, block } };
    }
    return { kind: 'done', results: [{ ...classifySessionReply(mail), host }] };
  }

  private connectOptions(identity: OutboundIdentity, ip: string, signal?: AbortSignal) {
    const { config } = this.deps;
    return {
      ip,
      port: config.smtpPort,
      connectTimeoutMs: config.connectTimeoutMs,
      commandTimeoutMs: config.commandTimeoutMs,
      socks: identity.proxy,
      localAddress: identity.bind,
      signal,
    };
  }

  /**
   * EHLO (HELO when refused), then STARTTLS and EHLO again when offered. Returns the reply that
   * stopped the greeting, or null when the session is ready for a transaction.
   */
  private async greet(
    session: SmtpSession,
    identity: OutboundIdentity,
    host: string,
    useTls: boolean,
    inTls: (inside: boolean) => void,
  ): Promise<SmtpReply | null> {
    const heloName = identity.helo;
    let ehlo = await session.command(`EHLO ${heloName}`);
    if (ehlo.code !== 250) {
      const helo = await session.command(`HELO ${heloName}`);
      if (helo.code !== 250) return helo;
    } else if (useTls && /\bSTARTTLS\b/i.test(ehlo.text)) {
      const starttls = await session.command('STARTTLS');
      if (starttls.code === 220) {
        inTls(true);
        await session.startTls(host);
        inTls(false);
        ehlo = await session.command(`EHLO ${heloName}`);
        if (ehlo.code !== 250) return ehlo;
      }
    }
    session.pipelining = ehlo.code === 250 && /\bPIPELINING\b/i.test(ehlo.text);
    session.smtpUtf8 = ehlo.code === 250 && /\bSMTPUTF8\b/i.test(ehlo.text);
    return null;
  }

  // Kept connections, per identity, MX host and address: a validation to a domain just probed skips the
  // connect, banner, EHLO and TLS round trips (RSET starts the next transaction). An idle
  // connection keeps its host slot, so per-host limits count open connections, not only busy ones.
  private readonly idle = new Map<string, { session: SmtpSession; release: () => void; timer: NodeJS.Timeout }[]>();
  private readonly sparesOpening = new Set<string>();
  /** Validations waiting for a host slot, per identity and MX host, in arrival order. */
  private readonly waiting = new Map<string, HostWaiter[]>();
  /** When the last one-transaction conversation started, per MX host and address: a second one soon after is a burst. */
  private readonly lastOneShot = new TtlCache<true>(10_000);

  /** A kept connection for `key`; `unusedOnly`: only a spare that never carried a transaction. */
  private takeIdle(key: string, unusedOnly: boolean): { session: SmtpSession; release: () => void } | undefined {
    const list = this.idle.get(key);
    while (list?.length) {
      let index = list.length - 1;
      if (unusedOnly) while (index >= 0 && list[index].session.transactions > 0) index -= 1;
      if (index < 0) return undefined;
      const [entry] = list.splice(index, 1);
      clearTimeout(entry.timer);
      if (list.length === 0) this.idle.delete(key);
      if (entry.session.open) return { session: entry.session, release: entry.release };
      entry.release();
    }
    return undefined;
  }

  /**
   * For hosts that take one transaction per connection: opens one spare connection in the
   * background (banner and EHLO done) while a burst runs, so the next validation there needs one
   * round trip instead of three. Only once a second such conversation starts within the idle time
   * (a burst, not a lone validation), only with a free host slot (never makes a validation wait),
   * one spare at a time, and it is closed like any kept connection when unused for the idle time.
   */
  private prepareSpare(identity: OutboundIdentity, host: string, ip: string, key: string, useTls: boolean): void {
    const { sessionIdleMs } = this.deps.config;
    const burst = this.lastOneShot.get(key) !== undefined;
    this.lastOneShot.set(key, true, sessionIdleMs);
    if (!burst || sessionIdleMs <= 0 || this.sparesOpening.has(key)) return;
    if (this.idle.get(key)?.some((e) => e.session.transactions === 0)) return;
    this.sparesOpening.add(key);
    void (async () => {
      let session: SmtpSession | undefined;
      const release = await this.deps.limits.tryAcquire(host, identity.id).catch(() => null);
      if (!release) return;
      try {
        const opened = await SmtpSession.open(this.connectOptions(identity, ip));
        session = opened.session;
        const ready = opened.banner.code === 220 && (await this.greet(session, identity, host, useTls, () => {})) === null;
        if (ready && this.park(lineKeyOf(identity, host), key, session, release, { initial: [] })) return;
        session.quit();
      } catch {
        // A spare that could not be opened is simply not there: the next validation opens its own.
      }
      session?.close();
      release();
    })().finally(() => this.sparesOpening.delete(key));
  }

  /**
   * A free host slot now, else waits in line for the host: the first in line of an MX address is
   * handed a connection to it as soon as one is done with (see park), any waiter the slot of a
   * connection that closes. Never a wait for an idle timer while connections sit unused.
   */
  private async waitForHost(
    identity: OutboundIdentity,
    host: string,
    key: string,
    conversation: Conversation,
    signal: AbortSignal,
  ): Promise<Handed> {
    if (signal.aborted) throw new DeadlineError();
    const { limits } = this.deps;
    const slot = await limits.tryAcquire(host, identity.id);
    if (slot) return { release: slot };
    if (signal.aborted) throw new DeadlineError();
    if (conversation.fresh) return { release: await limits.acquire(host, signal, identity.id) };
    const lineKey = lineKeyOf(identity, host);
    // A connection kept while the slot was asked for (the limits may answer later): taken instead of a wait.
    const kept = this.takeIdle(key, conversation.noReuse === true);
    if (kept) return kept;
    return new Promise<Handed>((resolve, reject) => {
      const line = this.waiting.get(lineKey) ?? [];
      this.waiting.set(lineKey, line);
      const stopSlotWait = new AbortController();
      let settled = false;
      const leave = () => {
        settled = true;
        signal.removeEventListener('abort', onDeadline);
        stopSlotWait.abort();
        const i = line.indexOf(waiter);
        if (i >= 0) line.splice(i, 1);
        if (line.length === 0 && this.waiting.get(lineKey) === line) this.waiting.delete(lineKey);
      };
      const waiter: HostWaiter = {
        key,
        unusedOnly: conversation.noReuse === true,
        hand: (handed) => {
          if (settled) return false;
          leave();
          resolve(handed);
          return true;
        },
      };
      const onDeadline = () => {
        if (settled) return;
        leave();
        reject(new DeadlineError());
      };
      signal.addEventListener('abort', onDeadline, { once: true });
      line.push(waiter);
      limits.acquire(host, stopSlotWait.signal, identity.id).then(
        (release) => {
          if (settled) return release();
          leave();
          resolve({ release });
        },
        () => {
          // Stopped: handed a connection instead, or the deadline passed (answered by onDeadline).
        },
      );
    });
  }

  /** Keeps a connection done with: to the first in line (`lineKey`) for its MX address (`key`), else in the idle pool. */
  private park(lineKey: string, key: string, session: SmtpSession, release: (() => void) | undefined, conversation: Conversation): boolean {
    const { sessionReuseMax, sessionIdleMs } = this.deps.config;
    if (!release || conversation.noReuse || !session.open || session.transactions >= sessionReuseMax || sessionIdleMs <= 0) return false;
    for (const waiter of [...(this.waiting.get(lineKey) ?? [])]) {
      if (waiter.key !== key || (waiter.unusedOnly && session.transactions > 0)) continue;
      if (waiter.hand({ session, release })) return true;
    }
    const list = this.idle.get(key) ?? [];
    const entry = {
      session,
      release,
      timer: setTimeout(() => {
        const i = list.indexOf(entry);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0 && this.idle.get(key) === list) this.idle.delete(key);
        session.quit();
        session.close();
        release();
      }, sessionIdleMs),
    };
    entry.timer.unref();
    list.push(entry);
    this.idle.set(key, list);
    return true;
  }

  /** Says QUIT on every kept connection (and spare). */
  closeIdle(): void {
    for (const list of this.idle.values()) {
      for (const entry of list) {
        clearTimeout(entry.timer);
        entry.session.quit();
        entry.session.close();
        entry.release();
      }
    }
    this.idle.clear();
  }
}

/** Kept connections and waiters are per identity: a connection made from one address cannot serve another. */
const lineKeyOf = (identity: OutboundIdentity, host: string) => `${identity.id}|${host}`;
const poolKeyOf = (identity: OutboundIdentity, host: string, ip: string) => `${identity.id}|${host}|${ip}`;

/** Where a refusal by these MX hosts holds: their security gateway, else their provider (or the MX host's own domain). */
function quarantineScope(hosts: string[]): string {
  const operator = identifyMx(hosts);
  return operator.gateway ?? operator.provider ?? hosts[0] ?? '';
}

/** A stored reply text ("550 5.7.1 words") back as a reply, for the answer's detail. */
function parseReplyText(text: string | undefined): SmtpReply | undefined {
  const match = text && /^(\d{3})(?: ([245]\.\d{1,3}\.\d{1,3}))? ?(.*)$/s.exec(text);
  return match ? { code: Number(match[1]), enhanced: match[2] ?? null, text: match[3] } : undefined;
}

/** A non-RCPT reply (banner, EHLO, MAIL) that stopped the session: never says anything about the mailbox. */
function classifySessionReply(reply: SmtpReply): Omit<RcptResult, 'host'> {
  const { reason } = classifyRcptReply(reply);
  return {
    verdict: 'unknown',
    reason: reason === 'user_unknown' || reason === 'mailbox_disabled' || reason === 'accepted' ? 'unclassified' : reason,
    reply,
  };
}
