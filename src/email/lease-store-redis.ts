// Probe limits' shared store in Redis (see shared-limits.ts). Per key: a sorted set of slots held
// (score: expiry), a sorted set of tickets in line (score: ticket number) with a second one of
// their expiries, a ticket counter, and a hash per token bucket. Each operation is one Lua script,
// so it is atomic; times come from the Redis server's clock, the same for every instance.
//
// A slot is handed over in the same script that frees it: whenever a script finds a free slot and a
// line, it grants the slot to the earliest ticket, whichever instance holds it, and publishes the
// grant on that instance's channel, so the waiter is woken by Redis itself one hop later instead of
// at its next poll. Pub/sub delivers at most once: an instance also asks now and then (pollMs), and
// that question returns its tickets granted meanwhile.
import type { Redis } from 'ioredis';
import type { LeaseEntry, LeaseStore } from './shared-limits.ts';

// Drops expired slots and tickets of KEYS[1..3]; sets `now` (ms, the server's clock). pump(limit,
// ttl, channels) grants free slots to the earliest tickets, publishing each grant on
// channels .. <the lease's instance> (a lease is "<instance>:<n>"), and returns them.
const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, m in ipairs(gone) do
  redis.call('ZREM', KEYS[2], m)
  redis.call('ZREM', KEYS[3], m)
end
local function keep(ttl)
  for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ttl * 4) end
end
local function pump(limit, ttl, channels)
  local granted = {}
  local free = limit - redis.call('ZCARD', KEYS[1])
  if free <= 0 then return granted end
  for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, free - 1)) do
    redis.call('ZREM', KEYS[2], m)
    redis.call('ZREM', KEYS[3], m)
    redis.call('ZADD', KEYS[1], now + ttl, m)
    redis.call('PUBLISH', channels .. string.match(m, '^[^:]*'), m)
    table.insert(granted, m)
  end
  if #granted > 0 then keep(ttl) end
  return granted
end
`;

/** KEYS: held, line, line expiries, counter. ARGV: lease, limit, ttl, queue (1/0), channels. */
const ENTER = `${PRELUDE}
local ttl = tonumber(ARGV[3])
-- Tickets waiting for slots that came free by expiry are served first.
pump(tonumber(ARGV[2]), ttl, ARGV[5])
if redis.call('ZCARD', KEYS[2]) == 0 and redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  keep(ttl)
  return 1
end
if ARGV[4] == '1' then
  local ticket = redis.call('INCR', KEYS[4])
  redis.call('ZADD', KEYS[2], ticket, ARGV[1])
  redis.call('ZADD', KEYS[3], now + ttl, ARGV[1])
  keep(ttl)
end
return 0`;

/** KEYS: as ENTER. ARGV: limit, ttl, channels, leases... Returns those of the leases that hold a slot now (granted now or earlier). */
const GRANT = `${PRELUDE}
local ttl = tonumber(ARGV[2])
pump(tonumber(ARGV[1]), ttl, ARGV[3])
local granted = {}
for i = 4, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], now + ttl, ARGV[i])
    table.insert(granted, ARGV[i])
  end
end
return granted`;

/** KEYS: as ENTER. ARGV: lease, limit, ttl, channels. Gives up a slot or ticket and grants what came free. */
const LEAVE = `${PRELUDE}
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return pump(tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4])`;

/** KEYS: as ENTER. ARGV: ttl, then lease and kind ("h" held, "w" waiting) pairs. Extends those present; returns the others. */
const RENEW = `${PRELUDE}
local ttl = tonumber(ARGV[1])
local missing = {}
for i = 2, #ARGV, 2 do
  local m = ARGV[i]
  if ARGV[i + 1] == 'h' then
    if redis.call('ZSCORE', KEYS[1], m) then redis.call('ZADD', KEYS[1], now + ttl, m) else table.insert(missing, m) end
  else
    if redis.call('ZSCORE', KEYS[2], m) then redis.call('ZADD', KEYS[3], now + ttl, m) else table.insert(missing, m) end
  end
end
keep(ttl)
return missing`;

/** KEYS: as ENTER. ARGV: ttl, then lease and kind pairs: each put back (a ticket at the end of the line). */
const RESTORE = `${PRELUDE}
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV, 2 do
  local m = ARGV[i]
  if ARGV[i + 1] == 'h' then
    redis.call('ZADD', KEYS[1], now + ttl, m)
  else
    -- A ticket granted meanwhile holds a slot: never put back in line.
    if not redis.call('ZSCORE', KEYS[1], m) then
      if not redis.call('ZSCORE', KEYS[2], m) then redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), m) end
      redis.call('ZADD', KEYS[3], now + ttl, m)
    end
  end
end
keep(ttl)
return 0`;

/** KEYS: bucket. ARGV: units, capacity, tokens per ms. Returns 0 when taken, else ms to wait. */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local units, capacity, perMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
local wait = 0
if tokens >= units then tokens = tokens - units else wait = math.ceil((units - tokens) / perMs) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / perMs) + 60000)
return wait`;

/** KEYS: instances. ARGV: instance, ttl. Returns the instances alive. */
const BEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 4)
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

export class RedisLeaseStore implements LeaseStore {
  /** The connection grants arrive on (subscribed, it can send nothing else); opened by listen(). */
  private subscriber: Redis | undefined;
  private subscribed = false;
  private listening = false;

  /** `namespace`: prefix of every key (deployments or test suites sharing one Redis keep apart). */
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {}

  get pushing(): boolean {
    return this.listening;
  }

  /** Grants are pushed once listening: asking is then only the safety net for a lost message or an expired slot. */
  get pollMs(): number {
    return this.listening ? 100 : 10;
  }

  private get channels(): string {
    return `${this.namespace}:probe:grants:`;
  }

  private keys(key: string): string[] {
    const base = `${this.namespace}:probe:${key}`;
    return [`${base}:held`, `${base}:line`, `${base}:line-exp`, `${base}:tickets`];
  }

  async listen(instance: string, onGrant: (lease: string) => void): Promise<void> {
    if (!this.subscriber) {
      this.subscriber = this.redis.duplicate();
      this.subscriber.on('error', () => {});
      this.subscriber.on('message', (_channel: string, lease: string) => onGrant(lease));
      // Resubscribed by ioredis after a reconnection; grants published meanwhile are found by polling.
      this.subscriber.on('close', () => (this.listening = false));
      this.subscriber.on('ready', () => (this.listening = this.subscribed));
    }
    if (this.listening) return;
    if (this.subscriber.status === 'wait') await this.subscriber.connect();
    await this.subscriber.subscribe(`${this.channels}${instance}`);
    this.subscribed = true;
    this.listening = true;
  }

  async close(): Promise<void> {
    this.listening = false;
    this.subscriber?.disconnect();
  }

  async enter(key: string, lease: string, limit: number, ttlMs: number, queue: boolean): Promise<boolean> {
    return (await this.redis.eval(ENTER, 4, ...this.keys(key), lease, limit, ttlMs, queue ? 1 : 0, this.channels)) === 1;
  }

  async grant(key: string, leases: string[], limit: number, ttlMs: number): Promise<string[]> {
    return (await this.redis.eval(GRANT, 4, ...this.keys(key), limit, ttlMs, this.channels, ...leases)) as string[];
  }

  async leave(key: string, lease: string, limit: number, ttlMs: number): Promise<string[]> {
    return (await this.redis.eval(LEAVE, 4, ...this.keys(key), lease, limit, ttlMs, this.channels)) as string[];
  }

  async renew(entries: LeaseEntry[], ttlMs: number): Promise<Set<string>> {
    return this.perKey(RENEW, entries, ttlMs);
  }

  async restore(entries: LeaseEntry[], ttlMs: number): Promise<void> {
    await this.perKey(RESTORE, entries, ttlMs);
  }

  /** Runs `script` once per key of `entries`, in one pipeline; returns what the scripts returned as a set. */
  private async perKey(script: string, entries: LeaseEntry[], ttlMs: number): Promise<Set<string>> {
    const byKey = new Map<string, LeaseEntry[]>();
    for (const entry of entries) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
    const out = new Set<string>();
    if (!byKey.size) return out;
    const pipeline = this.redis.pipeline();
    for (const [key, list] of byKey)
      pipeline.eval(script, 4, ...this.keys(key), ttlMs, ...list.flatMap((e) => [e.lease, e.waiting ? 'w' : 'h']));
    for (const [error, result] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      if (Array.isArray(result)) for (const lease of result) out.add(String(lease));
    }
    return out;
  }

  async take(key: string, units: number, capacity: number, perMs: number): Promise<number> {
    return Number(await this.redis.eval(TAKE, 1, `${this.namespace}:probe:${key}:bucket`, units, capacity, perMs));
  }

  async beat(instance: string, ttlMs: number): Promise<string[]> {
    const alive = await this.redis.eval(BEAT, 1, `${this.namespace}:probe:instances`, instance, ttlMs);
    return Array.isArray(alive) ? alive.map(String) : [];
  }
}
