// Probe limits' shared store in Redis (see shared-limits.ts). Per key: a sorted set of slots held
// (score: expiry), a sorted set of tickets in line (score: ticket number) with a second one of
// their expiries, a ticket counter, and a hash per token bucket. Each operation is one Lua script,
// so it is atomic; times come from the Redis server's clock, the same for every instance.
import type { Redis } from 'ioredis';
import type { LeaseEntry, LeaseStore } from './shared-limits.ts';

// Drops expired slots and tickets of KEYS[1..3]; sets `now` (ms, the server's clock).
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
`;

/** KEYS: held, line, line expiries, counter. ARGV: lease, limit, ttl, queue (1/0). */
const ENTER = `${PRELUDE}
local ttl = tonumber(ARGV[3])
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

/** KEYS: as ENTER. ARGV: limit, ttl, leases... */
const GRANT = `${PRELUDE}
local ttl = tonumber(ARGV[2])
local free = tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1])
if free <= 0 then return {} end
local mine = {}
for i = 3, #ARGV do mine[ARGV[i]] = true end
local granted = {}
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, free - 1)) do
  if mine[m] then
    redis.call('ZREM', KEYS[2], m)
    redis.call('ZREM', KEYS[3], m)
    redis.call('ZADD', KEYS[1], now + ttl, m)
    table.insert(granted, m)
  end
end
if #granted > 0 then keep(ttl) end
return granted`;

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
return redis.call('ZCARD', KEYS[1])`;

export class RedisLeaseStore implements LeaseStore {
  readonly pollMs = 10;

  /** `namespace`: prefix of every key (deployments or test suites sharing one Redis keep apart). */
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {}

  private keys(key: string): string[] {
    const base = `${this.namespace}:probe:${key}`;
    return [`${base}:held`, `${base}:line`, `${base}:line-exp`, `${base}:tickets`];
  }

  async enter(key: string, lease: string, limit: number, ttlMs: number, queue: boolean): Promise<boolean> {
    return (await this.redis.eval(ENTER, 4, ...this.keys(key), lease, limit, ttlMs, queue ? 1 : 0)) === 1;
  }

  async grant(key: string, leases: string[], limit: number, ttlMs: number): Promise<string[]> {
    return (await this.redis.eval(GRANT, 4, ...this.keys(key), limit, ttlMs, ...leases)) as string[];
  }

  async leave(key: string, lease: string): Promise<void> {
    const [held, line, lineExp] = this.keys(key);
    await this.redis.multi().zrem(held, lease).zrem(line, lease).zrem(lineExp, lease).exec();
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

  async beat(instance: string, ttlMs: number): Promise<number> {
    return Number(await this.redis.eval(BEAT, 1, `${this.namespace}:probe:instances`, instance, ttlMs));
  }
}
