// The admin API the console is built on (docs/console.md): sign-in, what the install holds, keys,
// their usage and ledger, the audit log. The operator sees everything; a customer's session sees
// only its own key, and every operator-only call answers it 403. The caller is set by plugins/admin.ts.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { adminRoute } from '../../../contract/admin.ts';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import { adminCaller, clearSessionCookie, requireOperator, setSessionCookie, type AdminCaller } from '../../admin-access.ts';
import { installStatus } from '../../../platform/status.ts';
import { dailyUsage } from '../../../billing/usage.ts';
import { setSpendCap, spendCapOf } from '../../../billing/caps.ts';
import { creditsToUnits, unitsToCredits } from '../../../billing/units.ts';
import type { KeySummary } from '../../../keys/service.ts';
import { SOURCE_TYPES } from '../../../sources/registry.ts';
import { RATE_LIMITS_PER_MINUTE } from '../../../operations/catalogue.ts';
import { csvLine } from '../../../csv/write.ts';

/** Sign-in attempts per client address per minute, across instances when Redis is there. */
const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;
const REFUSED = 'Sign-in refused: the token is not valid.';

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function idOf(params: unknown): number {
  const id = Number((params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidRequestError('The key id must be a positive whole number.');
  return id;
}

function callerOf(request: FastifyRequest): AdminCaller {
  return request.adminCaller!;
}

/** The key a caller may see: any for the operator, only its own for a customer (others look absent). */
function allowedKey(caller: AdminCaller, id: number): void {
  if (caller.role === 'customer' && caller.keyId !== id) throw new AppError(404, 'not_found', `No key with id ${id}.`);
}

function keyView(key: KeySummary & { rate_limits?: string | null }) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    credits: unitsToCredits(Number(key.balance)),
    created_at: new Date(Number(key.created_at)).toISOString(),
    revoked_at: key.revoked_at == null ? null : new Date(Number(key.revoked_at)).toISOString(),
    rate_limits: key.rate_limits ? (JSON.parse(key.rate_limits) as Record<string, number>) : {},
  };
}

export default async function adminConsoleRoutes(app: FastifyInstance): Promise<void> {
  const signIns: RateLimiterAbstract = app.services.redis
    ? new RateLimiterRedis({
        storeClient: app.services.redis,
        keyPrefix: 'leadbase:console-sign-in',
        points: SIGN_IN_ATTEMPTS_PER_MINUTE,
        duration: 60,
        insuranceLimiter: new RateLimiterMemory({ points: SIGN_IN_ATTEMPTS_PER_MINUTE, duration: 60 }),
      })
    : new RateLimiterMemory({ points: SIGN_IN_ATTEMPTS_PER_MINUTE, duration: 60 });

  // Sign-in: ADMIN_TOKEN opens an operator's session, an API key a customer's. Any wrong token is
  // refused with the same answer, and every attempt counts against the caller's address.
  app.post('/admin/session', adminRoute('adminSignIn'), async (request, reply) => {
    try {
      await signIns.consume(request.ip);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new AppError(429, 'rate_limited', `Too many sign-in attempts: try again in ${seconds} seconds.`, undefined, {
        'retry-after': String(seconds),
      });
    }
    const token = (request.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.trim() === '') throw new InvalidRequestError('Send {"token": "<ADMIN_TOKEN or API key>"}.');
    const given = token.trim();
    let role: 'operator' | 'customer';
    let keyId: number | undefined;
    if (app.adminToken && sameText(given, app.adminToken)) role = 'operator';
    else {
      const key = given.length <= 200 ? await app.services.keys.authenticate(given) : null;
      if (!key) throw new AppError(401, 'sign_in_refused', REFUSED);
      role = 'customer';
      keyId = key.id;
    }
    const session = app.sessions.issue(role, keyId);
    setSessionCookie(reply, session.cookie, session.expires, request.protocol === 'https');
    if (role === 'operator') await app.audit.record({ actor: 'operator (console)', ip: request.ip, action: 'sign in' });
    return { role, key_id: keyId ?? null, csrf_token: session.csrf, expires_at: new Date(session.expires).toISOString() };
  });

  // The session the cookie holds (the console asks on load), with its CSRF token.
  app.get('/admin/session', adminRoute('adminGetSession'), async (request) => {
    const caller = await adminCaller(app, app.sessions, request);
    if (caller.via !== 'session') throw new AppError(401, 'session_expired', 'No console session: sign in.');
    return { role: caller.role, key_id: caller.role === 'customer' ? caller.keyId : null, csrf_token: caller.csrf };
  });

  app.delete('/admin/session', adminRoute('adminSignOut'), async (_request, reply) => {
    clearSessionCookie(reply);
    return { signed_out: true };
  });

  // What `leadbase status` shows, the health of the database, Redis and the queue, sources stale first.
  app.get('/admin/status', adminRoute('adminGetStatus'), async (request) => {
    requireOperator(callerOf(request));
    const [status, health] = await Promise.all([
      installStatus(app.services.db, app.services.dialect, app.pgBossSchema, app.services.email.outbound.identities),
      app.services.health(),
    ]);
    const now = Date.now();
    const staleness = (s: (typeof status.sources)[number]) =>
      s.last_success_at ? now - Date.parse(s.last_success_at) - s.every_ms : Number.MAX_SAFE_INTEGER;
    const sources = status.sources
      .map((s) => ({ ...s, stale: staleness(s) > 0 }))
      .sort((a, b) => staleness(b) - staleness(a) || a.id - b.id);
    return {
      ...status,
      sources,
      health: { ...health, queue: status.queue.depth >= 0 ? 'ok' : 'unavailable' },
      // This instance's traffic over the last 24 h, in 15-minute buckets.
      traffic: { bucket_minutes: 15, buckets: app.requestCounts.lastDay(15) },
    };
  });

  app.get('/admin/keys', adminRoute('adminListKeys'), async (request) => {
    const caller = callerOf(request);
    if (caller.role === 'customer') {
      const key = await app.services.keys.get(caller.keyId);
      return { keys: key ? [keyView(key)] : [] };
    }
    return { keys: (await app.services.keys.list()).map(keyView) };
  });

  app.post('/admin/keys', adminRoute('adminCreateKey'), async (request, reply) => {
    requireOperator(callerOf(request));
    const body = (request.body ?? {}) as { name?: unknown; credits?: unknown };
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 200)
      throw new InvalidRequestError('name is required: a text of at most 200 characters.');
    let units = 0;
    try {
      if (body.credits != null && body.credits !== '') units = creditsToUnits(body.credits as string);
    } catch (error) {
      throw new InvalidRequestError((error as Error).message);
    }
    const created = await app.services.keys.create(body.name, units);
    reply.status(201);
    return { id: created.id, name: created.name, prefix: created.prefix, key: created.key, credits: unitsToCredits(units) };
  });

  app.get('/admin/keys/:id', adminRoute('adminGetKey'), async (request) => {
    const id = idOf(request.params);
    allowedKey(callerOf(request), id);
    const key = await app.services.keys.get(id);
    if (!key) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    return keyView(key);
  });

  app.post('/admin/keys/:id/revoke', adminRoute('adminRevokeKey'), async (request) => {
    requireOperator(callerOf(request));
    const id = idOf(request.params);
    if (!(await app.services.keys.get(id))) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    await app.services.keys.revoke(id);
    return keyView((await app.services.keys.get(id))!);
  });

  app.post('/admin/keys/:id/credits', adminRoute('adminGrantCredits'), async (request) => {
    requireOperator(callerOf(request));
    const id = idOf(request.params);
    const body = (request.body ?? {}) as { credits?: unknown; note?: unknown };
    let units: number;
    try {
      units = creditsToUnits(body.credits as string);
    } catch (error) {
      throw new InvalidRequestError((error as Error).message);
    }
    if (units <= 0) throw new InvalidRequestError('credits must be more than 0.');
    if (body.note != null && (typeof body.note !== 'string' || body.note.length > 500))
      throw new InvalidRequestError('note must be a text of at most 500 characters.');
    const key = await app.services.keys.get(id);
    if (!key) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    if (key.revoked_at != null) throw new InvalidRequestError(`Key ${id} is revoked: credits cannot be granted to it.`);
    const balance = await app.services.billing.grant(id, units, (body.note as string | undefined)?.trim() || null);
    return { id, granted: unitsToCredits(units), credits: unitsToCredits(balance) };
  });

  // Credits and calls per day and operation (an aggregate query: fast whatever the ledger's size).
  app.get('/admin/keys/:id/usage', adminRoute('adminGetKeyUsage'), async (request) => {
    const id = idOf(request.params);
    allowedKey(callerOf(request), id);
    const days = Number((request.query as { days?: string }).days ?? 30);
    if (![7, 30, 90].includes(days)) throw new InvalidRequestError('days must be 7, 30 or 90.');
    const rows = await dailyUsage(app.services.db, id, days);
    return { id, days, usage: rows.map((row) => ({ ...row, credits: unitsToCredits(row.units), units: undefined })) };
  });

  // The key's ledger, newest first, as JSON or CSV (?format=csv).
  app.get('/admin/keys/:id/ledger', adminRoute('adminGetKeyLedger'), async (request, reply) => {
    const id = idOf(request.params);
    allowedKey(callerOf(request), id);
    const query = request.query as { format?: string; limit?: string };
    const limit = Math.min(Math.max(Number(query.limit ?? 100) || 100, 1), 100_000);
    const rows = (await app.services.billing.usage(id, limit)).map((row) => ({
      id: Number(row.id),
      at: new Date(Number(row.created_at)).toISOString(),
      kind: row.kind,
      credits: unitsToCredits(Number(row.amount)),
      operation: row.operation,
      request_id: row.request_id,
      note: row.note,
    }));
    if (query.format !== 'csv') return { id, ledger: rows };
    const header = csvLine(['id', 'at', 'kind', 'credits', 'operation', 'request_id', 'note']);
    const lines = rows.map((r) => csvLine([r.id, r.at, r.kind, r.credits, r.operation, r.request_id, r.note]));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="key-${id}-ledger.csv"`)
      .send([header, ...lines].join(''));
  });

  // Per-operation requests per minute: the defaults, and the key's own where it has one.
  app.get('/admin/keys/:id/limits', adminRoute('adminGetKeyLimits'), async (request) => {
    const id = idOf(request.params);
    allowedKey(callerOf(request), id);
    const key = (await app.services.keys.list()).find((k) => k.id === id);
    if (!key) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    return { id, defaults: RATE_LIMITS_PER_MINUTE, own: keyView(key).rate_limits };
  });

  // {"operation", "per_minute"} sets the key's own limit; "per_minute": null goes back to the default.
  app.put('/admin/keys/:id/limits', adminRoute('adminSetKeyLimit'), async (request) => {
    requireOperator(callerOf(request));
    const id = idOf(request.params);
    const body = (request.body ?? {}) as { operation?: unknown; per_minute?: unknown };
    if (typeof body.operation !== 'string' || !(body.operation in RATE_LIMITS_PER_MINUTE))
      throw new InvalidRequestError(`operation must be one of ${Object.keys(RATE_LIMITS_PER_MINUTE).join(', ')}.`);
    const perMinute = body.per_minute;
    if (perMinute !== null && (!Number.isSafeInteger(perMinute) || (perMinute as number) < 1 || (perMinute as number) > 1_000_000))
      throw new InvalidRequestError('per_minute must be a whole number from 1 to 1,000,000, or null for the default.');
    if (!(await app.services.keys.get(id))) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    return { id, own: await app.services.keys.setRateLimit(id, body.operation, perMinute as number | null) };
  });

  // The secret that signs the key's bulk-list webhooks: shown to the operator, made on first use,
  // replaced when rotated (POST).
  app.get('/admin/keys/:id/webhook-secret', adminRoute('adminGetWebhookSecret'), async (request) => {
    requireOperator(callerOf(request));
    const id = idOf(request.params);
    const secret = await app.services.keys.webhookSecret(id);
    if (!secret) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    return { id, webhook_secret: secret };
  });

  app.post('/admin/keys/:id/webhook-secret', adminRoute('adminRotateWebhookSecret'), async (request) => {
    requireOperator(callerOf(request));
    const id = idOf(request.params);
    const secret = await app.services.keys.webhookSecret(id, { rotate: true });
    if (!secret) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    return { id, webhook_secret: secret };
  });

  // The key's spend cap, with what it spent in the current period (null: no cap).
  app.get('/admin/keys/:id/spend-cap', adminRoute('adminGetSpendCap'), async (request) => {
    const id = idOf(request.params);
    allowedKey(callerOf(request), id);
    const cap = await spendCapOf(app.services.db, id);
    if (!cap) return { id, spend_cap: null };
    return {
      id,
      spend_cap: {
        period: cap.period,
        cap: unitsToCredits(cap.capUnits),
        alert_at: cap.alertUnits == null ? null : unitsToCredits(cap.alertUnits),
        spent: unitsToCredits(cap.spentUnits),
        alert: cap.alertUnits != null && cap.spentUnits >= cap.alertUnits,
        reached: cap.spentUnits >= cap.capUnits,
      },
    };
  });

  // Sets the cap: {"period": "day"|"month", "cap": credits, "alert_at"?: credits}, or {"cap": null} to remove it.
  app.put('/admin/keys/:id/spend-cap', adminRoute('adminSetSpendCap'), async (request) => {
    requireOperator(callerOf(request));
    const id = idOf(request.params);
    if (!(await app.services.keys.get(id))) throw new AppError(404, 'not_found', `No key with id ${id}.`);
    const body = (request.body ?? {}) as { period?: unknown; cap?: unknown; alert_at?: unknown };
    if (body.cap === null) {
      await setSpendCap(app.services.db, id, null);
      return { id, spend_cap: null };
    }
    if (body.period !== 'day' && body.period !== 'month') throw new InvalidRequestError('period must be day or month.');
    let capUnits: number;
    let alertUnits: number | null = null;
    try {
      capUnits = creditsToUnits(body.cap as string);
      if (body.alert_at != null && body.alert_at !== '') alertUnits = creditsToUnits(body.alert_at as string);
    } catch (error) {
      throw new InvalidRequestError((error as Error).message);
    }
    if (capUnits <= 0) throw new InvalidRequestError('cap must be more than 0 (send {"cap": null} to remove the cap).');
    if (alertUnits != null && alertUnits > capUnits) throw new InvalidRequestError('alert_at must not be above the cap.');
    await setSpendCap(app.services.db, id, { period: body.period, capUnits, alertUnits });
    return {
      id,
      spend_cap: { period: body.period, cap: unitsToCredits(capUnits), alert_at: alertUnits == null ? null : unitsToCredits(alertUnits) },
    };
  });

  // The kinds of source the registry takes (the console's "add a source" choices).
  app.get('/admin/source-types', adminRoute('adminListSourceTypes'), async (request) => {
    requireOperator(callerOf(request));
    return { types: SOURCE_TYPES };
  });

  app.get('/admin/audit', adminRoute('adminListAudit'), async (request) => {
    requireOperator(callerOf(request));
    const query = request.query as { limit?: string; before?: string };
    return { entries: await app.audit.list({ limit: Number(query.limit) || 100, before: Number(query.before) || undefined }) };
  });
}
