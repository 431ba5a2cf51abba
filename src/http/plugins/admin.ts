// Every /admin request (but the sign-in itself) learns its caller here, and every change an
// operator makes is written to the audit log before its answer is sent.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminCaller, SessionCodec, type AdminCaller } from '../admin-access.ts';
import { AuditLog } from '../../audit/log.ts';
import { RequestCounter } from '../request-counts.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on /admin routes: who calls. */
    adminCaller?: AdminCaller;
  }
  interface FastifyInstance {
    sessions: SessionCodec;
    audit: AuditLog;
    /** Requests and errors per minute over the last day, of this instance (the overview's chart). */
    requestCounts: RequestCounter;
    /** pg-boss's schema when pg-boss is the queue (the status counts its jobs). */
    pgBossSchema: string | undefined;
  }
}

const SECRET_FIELD = /token|secret|password|key$/i;

/** What was asked, for the log: small, with secrets left out. */
function askedOf(body: unknown): Record<string, unknown> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (SECRET_FIELD.test(name)) continue;
    // Long texts (a pasted list) are counted, not copied: the log keeps no one's addresses.
    out[name] = Array.isArray(value)
      ? `${value.length} items`
      : typeof value === 'string' && value.length > 200
        ? `${value.length} characters`
        : value;
  }
  return out;
}

function isAdminPath(request: FastifyRequest): boolean {
  return request.url === '/admin' || request.url.startsWith('/admin/') || request.url.startsWith('/admin?');
}

async function adminPlugin(app: FastifyInstance): Promise<void> {
  app.decorate('sessions', new SessionCodec(app.adminToken));
  app.decorate('audit', new AuditLog(app.services.db));
  const counts = new RequestCounter();
  app.decorate('requestCounts', counts);

  app.addHook('onResponse', (_request, reply, done) => {
    counts.record(reply.statusCode);
    done();
  });

  app.addHook('onRequest', async (request) => {
    if (!isAdminPath(request) || request.routeOptions.url === '/admin/session') return;
    request.adminCaller = await adminCaller(app, app.sessions, request);
  });

  // Before the answer leaves, so the caller never sees a change the log does not hold yet.
  app.addHook('onSend', async (request, reply, payload) => {
    const caller = request.adminCaller;
    if (caller?.role !== 'operator' || ['GET', 'HEAD', 'OPTIONS'].includes(request.method) || reply.statusCode >= 400) return payload;
    const params = request.params as Record<string, string> | undefined;
    await app.audit
      .record({
        actor: caller.via === 'session' ? 'operator (console)' : 'operator (admin token)',
        ip: request.ip,
        action: `${request.method} ${request.routeOptions.url ?? request.url}`,
        // An API call made from the console as a key names that key.
        target: params?.id ?? (request.apiKey ? String(request.apiKey.id) : null),
        detail: { status: reply.statusCode, ...(askedOf(request.body) ?? {}) },
      })
      .catch((error: Error) => request.log.error({ err: { message: error.message } }, 'audit log write failed'));
    return payload;
  });
}

export default fp(adminPlugin, { name: 'admin', dependencies: ['errors'] });
