// Who calls the admin API (docs/console.md, "Sign-in"): the operator, with ADMIN_TOKEN as a bearer
// token (scripts) or a console session; or a customer, with a console session opened by an API key,
// who sees only what belongs to that key. Console sessions live in a signed HttpOnly, SameSite=Strict
// cookie; every change made with one must carry the session's CSRF token in X-CSRF-Token.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../operations/errors.ts';
import type { AuthenticatedKey } from '../keys/service.ts';

export type AdminCaller =
  { role: 'operator'; via: 'token' | 'session'; csrf?: string } | { role: 'customer'; keyId: number; via: 'session'; csrf: string };

interface SessionBody {
  /** operator or customer */
  r: 'operator' | 'customer';
  /** The key of a customer's session. */
  k?: number;
  /** Expiry, epoch ms. */
  e: number;
  /** Random: the session's CSRF token derives from it. */
  n: string;
}

const COOKIE = 'leadbase_session';
/** A session lasts a working day; signing in again starts a new one. */
const SESSION_MS = 12 * 3_600_000;

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Signs and reads session cookies. The secret derives from ADMIN_TOKEN so every instance shares it. */
export class SessionCodec {
  private readonly secret: Buffer;

  constructor(adminToken: string | undefined) {
    // Without ADMIN_TOKEN there is no operator; customers' sessions then hold within this process.
    this.secret = adminToken ? createHmac('sha256', 'leadbase console session').update(adminToken).digest() : randomBytes(32);
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }

  issue(role: 'operator' | 'customer', keyId?: number, now = Date.now()): { cookie: string; csrf: string; expires: number } {
    const body: SessionBody = { r: role, e: now + SESSION_MS, n: randomBytes(16).toString('base64url'), ...(keyId ? { k: keyId } : {}) };
    const text = Buffer.from(JSON.stringify(body)).toString('base64url');
    return { cookie: `${text}.${this.sign(text)}`, csrf: this.csrfOf(body), expires: body.e };
  }

  csrfOf(body: SessionBody): string {
    return this.sign(`csrf.${body.n}`);
  }

  read(cookie: string | undefined, now = Date.now()): SessionBody | undefined {
    if (!cookie) return undefined;
    const [text, mac] = cookie.split('.');
    if (!text || !mac || !sameText(mac, this.sign(text))) return undefined;
    try {
      const body = JSON.parse(Buffer.from(text, 'base64url').toString()) as SessionBody;
      return body.e > now ? body : undefined;
    } catch {
      return undefined;
    }
  }
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** `secure`: the request came over HTTPS (directly or through a trusted proxy), so the cookie never goes back over HTTP. */
export function setSessionCookie(reply: FastifyReply, value: string, expires: number, secure = false): void {
  const maxAge = Math.max(0, Math.floor((expires - Date.now()) / 1000));
  void reply.header('set-cookie', `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`);
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.header('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The caller of an admin request, or 401. With a session, a change without the right CSRF token is
 * refused (403), and a customer's key must still be live.
 */
export async function adminCaller(app: FastifyInstance, codec: SessionCodec, request: FastifyRequest): Promise<AdminCaller> {
  const cookie = cookieOf(request, COOKIE);
  // Without ADMIN_TOKEN the admin API is off, but for customers' console sessions.
  if (!app.adminToken && !cookie) throw new AppError(404, 'not_found', 'The admin API is off on this server (set ADMIN_TOKEN).');
  const bearer = (request.headers.authorization ?? '').match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (bearer) {
    if (app.adminToken && sameText(bearer, app.adminToken)) return { role: 'operator', via: 'token' };
    throw new AppError(401, 'invalid_admin_token', 'The admin token is not valid.');
  }
  const session = codec.read(cookie);
  if (!session) {
    throw new AppError(
      401,
      'missing_admin_token',
      'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>, or sign in to the console.',
    );
  }
  const csrf = codec.csrfOf(session);
  if (!SAFE_METHODS.has(request.method)) {
    const given = request.headers['x-csrf-token'];
    if (typeof given !== 'string' || !sameText(given, csrf))
      throw new AppError(403, 'csrf_token_invalid', "This change needs the session's CSRF token in the X-CSRF-Token header.");
  }
  if (session.r === 'operator') {
    if (!app.adminToken) throw new AppError(401, 'session_expired', 'The session has ended: sign in again.');
    return { role: 'operator', via: 'session', csrf };
  }
  const key = session.k ? await app.services.keys.get(session.k) : undefined;
  if (!key || key.revoked_at != null) throw new AppError(401, 'session_expired', 'The session has ended: sign in again.');
  return { role: 'customer', keyId: key.id, via: 'session', csrf };
}

export function requireOperator(caller: AdminCaller): void {
  if (caller.role !== 'operator')
    throw new AppError(403, 'forbidden', "This needs the operator: a customer's session sees only its own key.");
}

/** The header in which an operator's console session names the key an API call is made as. */
export const CALL_AS_HEADER = 'x-leadbase-call-as';

/**
 * The key an API call made from the console is charged to (docs/console.md, Explore), or undefined
 * when the request is not one: a console call carries the session cookie and its CSRF token, since a
 * cookie alone never authenticates an API call. A customer's session calls as its own key and no
 * other; an operator's session names the key in X-Leadbase-Call-As.
 */
export async function consoleCallKey(
  app: FastifyInstance,
  codec: SessionCodec,
  request: FastifyRequest,
): Promise<{ key: AuthenticatedKey; role: 'operator' | 'customer' } | undefined> {
  const given = request.headers['x-csrf-token'];
  if (typeof given !== 'string') return undefined;
  const session = codec.read(cookieOf(request, COOKIE));
  if (!session || (session.r === 'operator' && !app.adminToken))
    throw new AppError(401, 'session_expired', 'The console session has ended: sign in again.');
  if (!sameText(given, codec.csrfOf(session)))
    throw new AppError(403, 'csrf_token_invalid', "A console call needs the session's CSRF token in the X-CSRF-Token header.");
  const asText = request.headers[CALL_AS_HEADER];
  const callAs = typeof asText === 'string' ? Number(asText) : undefined;
  if (callAs !== undefined && (!Number.isSafeInteger(callAs) || callAs <= 0))
    throw new AppError(400, 'invalid_request', `${CALL_AS_HEADER} must be a key id: a positive whole number.`);
  if (session.r === 'customer') {
    if (callAs !== undefined && callAs !== session.k)
      throw new AppError(403, 'forbidden', "A customer's console session calls the API only as its own key.");
    const key = session.k ? await app.services.keys.activeById(session.k) : null;
    if (!key) throw new AppError(401, 'session_expired', 'The console session has ended: sign in again.');
    return { key, role: 'customer' };
  }
  if (callAs === undefined)
    throw new AppError(400, 'invalid_request', `An operator's console call names the key it is made as in ${CALL_AS_HEADER}.`);
  const key = await app.services.keys.activeById(callAs);
  if (!key) throw new AppError(404, 'not_found', `No live key with id ${callAs}.`);
  return { key, role: 'operator' };
}
