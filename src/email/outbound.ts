// Outbound identities: the ways the prober can reach a mail server (a local address to send
// from, or a SOCKS5 proxy), each with its own EHLO name. A mail server that refuses one as a
// sender (refusals.ts) gets it quarantined there for a while, and the conversation is tried again
// through another. When a public blocklist names it, it is also marked listed: elsewhere it is
// used only when no unlisted identity is left (servers that do not read that list still answer
// it). Quarantines are kept in memory for the prober and in the database for other instances and
// `leadbase status`.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Db } from '../db/database.ts';
import type { Block } from './refusals.ts';
import { parseSocksUrl, type SmtpReply, type SocksProxy } from './smtp-session.ts';

/** One identity as configured (EMAIL_OUTBOUND): a local address or a proxy, never both. */
export interface OutboundSetting {
  /** A name for logs, metrics and status; quarantines are kept under it. */
  id: string;
  /** Local IPv4/IPv6 address connections are made from. */
  bind?: string;
  /** socks5://[user:pass@]host:port that makes the connections. */
  proxy?: string;
  /** EHLO name; should resolve to, and be the reverse DNS of, the address mail servers see. */
  helo?: string;
  /** Envelope sender (MAIL FROM) used through this identity. */
  mail_from?: string;
}

/** An identity ready for the prober. */
export interface OutboundIdentity {
  id: string;
  bind?: string;
  proxy?: SocksProxy;
  /** The proxy's host:port, without credentials (status pages). */
  via: string;
  helo: string;
  mailFrom: string;
}

const ID = /^[A-Za-z0-9_.-]{1,40}$/;

/** Reads EMAIL_OUTBOUND (JSON) or EMAIL_OUTBOUND_FILE (a JSON file); null when neither is set. */
export function loadOutboundSettings(env: NodeJS.ProcessEnv): OutboundSetting[] | null {
  let raw = env.EMAIL_OUTBOUND;
  let origin = 'EMAIL_OUTBOUND';
  if (!raw && env.EMAIL_OUTBOUND_FILE) {
    origin = `EMAIL_OUTBOUND_FILE (${env.EMAIL_OUTBOUND_FILE})`;
    raw = readFileSync(env.EMAIL_OUTBOUND_FILE, 'utf8');
  }
  if (!raw || raw.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${origin} must be JSON: ${(error as Error).message}`, { cause: error });
  }
  return checkOutboundSettings(parsed, origin);
}

/** Checks a list of identities: ids unique and plain, an IP literal to bind or a socks5:// proxy URL. */
export function checkOutboundSettings(value: unknown, origin = 'EMAIL_OUTBOUND'): OutboundSetting[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error(`${origin} must be a non-empty JSON array of identities`);
  const seen = new Set<string>();
  return value.map((entry, i) => {
    const at = `${origin}[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${at} must be an object`);
    const { id, bind, proxy, helo, mail_from: mailFrom } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || !ID.test(id)) throw new Error(`${at}.id must be 1-40 letters, digits, "_", "." or "-"`);
    if (seen.has(id)) throw new Error(`${at}.id "${id}" is used twice`);
    seen.add(id);
    for (const [name, v] of Object.entries({ bind, proxy, helo, mail_from: mailFrom }))
      if (v !== undefined && typeof v !== 'string') throw new Error(`${at}.${name} must be a string`);
    if (bind !== undefined && proxy !== undefined) throw new Error(`${at}: set bind or proxy, not both`);
    if (bind !== undefined && !isIP(bind as string)) throw new Error(`${at}.bind must be an IPv4 or IPv6 address, got "${String(bind)}"`);
    if (proxy !== undefined) parseSocksUrl(proxy as string, `${at}.proxy`);
    const setting: OutboundSetting = { id };
    if (bind !== undefined) setting.bind = bind as string;
    if (proxy !== undefined) setting.proxy = proxy as string;
    if (helo !== undefined) setting.helo = helo as string;
    if (mailFrom !== undefined) setting.mail_from = mailFrom as string;
    return setting;
  });
}

/** The identities to use: the configured ones, or one from EMAIL_HELO_NAME / EMAIL_SOCKS_PROXY (the server's own address). */
export function outboundIdentities(
  settings: OutboundSetting[] | null,
  defaults: { heloName: string; mailFrom: string; socksProxy: string | undefined },
): OutboundIdentity[] {
  const list = settings ?? [{ id: 'default', proxy: defaults.socksProxy }];
  return list.map((s) => {
    const proxy = s.proxy ? parseSocksUrl(s.proxy) : undefined;
    return {
      id: s.id,
      bind: s.bind,
      proxy,
      via: proxy ? `socks5://${proxy.host}:${proxy.port}` : s.bind ? `bind ${s.bind}` : 'default address',
      helo: s.helo || defaults.heloName,
      mailFrom: s.mail_from || defaults.mailFrom,
    };
  });
}

export interface Quarantine {
  scope: string;
  since: number;
  until: number;
  reply: string;
}

/** An identity as status pages show it. */
export interface OutboundIdentityState {
  id: string;
  via: string;
  helo: string;
  /** active; limited: quarantined at some mail servers; listed: on a public blocklist too (used elsewhere only as a last resort). */
  state: 'active' | 'limited' | 'listed';
  quarantines: { scope: string; since: string; until: string; reply: string }[];
}

/** The scope that stands for every mail server: the identity is on a public blocklist. */
export const EVERYWHERE = '*';
/** How often the quarantines other instances wrote are read again. */
const REFRESH_MS = 30_000;

export const replyText = (reply: SmtpReply) => `${reply.code}${reply.enhanced ? ` ${reply.enhanced}` : ''} ${reply.text}`.slice(0, 500);

export interface OutboundPoolOptions {
  /** How long a permanent (5xx) refusal quarantines an identity. */
  quarantineMs: number;
  /** How long a temporary (4xx) refusal does (never longer than quarantineMs). */
  temporaryMs: number;
  /** Where quarantines are shared; absent: memory only. */
  db?: Db;
  /** Told of every quarantine (metrics, logs). */
  onQuarantine?: (identity: string, scope: string, reply: SmtpReply) => void;
  /** Told when the database could not be read or written (memory goes on alone). */
  onStoreError?: (error: unknown) => void;
}

export class OutboundPool {
  private readonly quarantines = new Map<string, Map<string, Quarantine>>();
  private turn = 0;
  private loaded: Promise<void> | undefined;
  private loadedAt = 0;
  private readonly writes = new Set<Promise<unknown>>();
  /** Quarantines this instance decided, per identity and kind of scope (metrics). */
  readonly tallies = new Map<string, { everywhere: number; provider: number }>();

  constructor(
    readonly identities: OutboundIdentity[],
    private readonly options: OutboundPoolOptions,
  ) {}

  /** Reads what other instances quarantined: awaited once, then refreshed in the background. */
  async ready(): Promise<void> {
    if (!this.options.db) return;
    if (!this.loaded) this.loaded = this.load();
    else if (Date.now() - this.loadedAt > REFRESH_MS) {
      this.loadedAt = Date.now();
      void this.load();
    }
    await this.loaded;
  }

  private async load(): Promise<void> {
    this.loadedAt = Date.now();
    try {
      const rows = await this.options.db!.selectFrom('email_outbound_quarantines').selectAll().where('until_at', '>', Date.now()).execute();
      for (const row of rows) {
        this.remember(row.identity, { scope: row.scope, since: Number(row.since_at), until: Number(row.until_at), reply: row.reply });
      }
    } catch (error) {
      this.options.onStoreError?.(error);
    }
  }

  private remember(identity: string, q: Quarantine): void {
    let scopes = this.quarantines.get(identity);
    if (!scopes) this.quarantines.set(identity, (scopes = new Map()));
    const known = scopes.get(q.scope);
    if (!known || known.until < q.until) scopes.set(q.scope, q);
  }

  /** The quarantine in force for `identity` at `scope` ('*': its public blocklist mark), if any. */
  quarantineOf(identity: string, scope: string, now = Date.now()): Quarantine | undefined {
    const scopes = this.quarantines.get(identity);
    const q = scopes?.get(scope);
    if (q && q.until > now) return q;
    if (q) scopes!.delete(scope);
    return undefined;
  }

  /**
   * The next identity to try for a mail server in `scope`, taking turns so that each carries a
   * share of the probes; none of `tried`, none quarantined there; an unlisted one before one on a
   * public blocklist. Undefined when none is left.
   */
  pick(scope: string, tried: ReadonlySet<string>): OutboundIdentity | undefined {
    const n = this.identities.length;
    for (const listedToo of [false, true]) {
      for (let i = 0; i < n; i += 1) {
        const identity = this.identities[(this.turn + i) % n];
        if (tried.has(identity.id) || this.quarantineOf(identity.id, scope)) continue;
        if (!listedToo && this.quarantineOf(identity.id, EVERYWHERE)) continue;
        this.turn = (this.turn + i + 1) % n;
        return identity;
      }
    }
    return undefined;
  }

  /** The reply of a quarantine that keeps some identity from `scope` (the reason an answer is unknown). */
  anyQuarantineReply(scope: string): string | undefined {
    for (const identity of this.identities) {
      const q = this.quarantineOf(identity.id, scope);
      if (q) return q.reply;
    }
    return undefined;
  }

  /** Quarantines `identity` at `scope` after `reply` refused it, and marks it listed ('*') when a public blocklist names it. */
  quarantine(identity: string, scope: string, reply: SmtpReply, block: Block): void {
    const length = reply.code >= 500 ? this.options.quarantineMs : Math.min(this.options.quarantineMs, this.options.temporaryMs);
    if (length <= 0) return;
    const now = Date.now();
    for (const at of block.everywhere ? [scope, EVERYWHERE] : [scope]) {
      const q: Quarantine = { scope: at, since: now, until: now + length, reply: replyText(reply) };
      this.remember(identity, q);
      this.store(identity, q);
    }
    const tally = this.tallies.get(identity) ?? { everywhere: 0, provider: 0 };
    tally[block.everywhere ? 'everywhere' : 'provider'] += 1;
    this.tallies.set(identity, tally);
    this.options.onQuarantine?.(identity, block.everywhere ? EVERYWHERE : scope, reply);
  }

  private store(identity: string, q: Quarantine): void {
    const db = this.options.db;
    if (!db) return;
    const write = db
      .insertInto('email_outbound_quarantines')
      .values({ identity, scope: q.scope, since_at: q.since, until_at: q.until, reply: q.reply })
      .onConflict((oc) => oc.columns(['identity', 'scope']).doUpdateSet({ since_at: q.since, until_at: q.until, reply: q.reply }))
      .execute()
      .catch((error: unknown) => this.options.onStoreError?.(error))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Waits for quarantines being written. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  /** Each identity with its quarantines in force (this instance's view). */
  states(now = Date.now()): OutboundIdentityState[] {
    return describeIdentities(
      this.identities,
      [...this.quarantines].flatMap(([identity, scopes]) => [...scopes.values()].map((q) => ({ identity, ...q }))),
      now,
    );
  }

  /** Identities on no public blocklist (the others are used only where nothing else is left). */
  usable(now = Date.now()): number {
    return this.identities.filter((i) => !this.quarantineOf(i.id, EVERYWHERE, now)).length;
  }

  forget(): void {
    this.quarantines.clear();
  }
}

/** The identities with the quarantines in force among `rows`, newest first. */
function describeIdentities(
  identities: OutboundIdentity[],
  rows: (Quarantine & { identity: string })[],
  now: number,
): OutboundIdentityState[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  return identities.map((identity) => {
    const own = rows.filter((r) => r.identity === identity.id && r.until > now).sort((a, b) => b.since - a.since);
    const listed = own.some((r) => r.scope === EVERYWHERE);
    return {
      id: identity.id,
      via: identity.via,
      helo: identity.helo,
      state: listed ? 'listed' : own.length ? 'limited' : 'active',
      quarantines: own.map((r) => ({ scope: r.scope, since: iso(r.since), until: iso(r.until), reply: r.reply })),
    };
  });
}

/** The identities with the quarantines the database holds (what every instance knows). */
export async function storedIdentityStates(db: Db, identities: OutboundIdentity[], now = Date.now()): Promise<OutboundIdentityState[]> {
  const rows = await db.selectFrom('email_outbound_quarantines').selectAll().where('until_at', '>', now).execute();
  return describeIdentities(
    identities,
    rows.map((r) => ({ identity: r.identity, scope: r.scope, since: Number(r.since_at), until: Number(r.until_at), reply: r.reply })),
    now,
  );
}
