import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/server.ts';
import type { ApiAnswer, ApiCall } from '../../mcp/tools.ts';
import { OPERATIONS } from '../../operations/catalogue.ts';
import { operationRoute } from '../operation-route.ts';
import { AppError, InvalidRequestError } from '../../operations/errors.ts';
import { presentedKey } from '../plugins/auth.ts';

/** A JSON-RPC 2.0 request, notification or response (the SDK checks the rest). */
function isJsonRpcMessage(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  return (
    message.jsonrpc === '2.0' && (typeof message.method === 'string' || ('id' in message && ('result' in message || 'error' in message)))
  );
}

/** What the transport would refuse in JSON-RPC's own form, refused first in the API's envelope. */
function checkMcpRequest(accept: string | undefined, body: unknown): void {
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new AppError(406, 'not_acceptable', 'An MCP client accepts both application/json and text/event-stream (the Accept header).');
  }
  const messages = Array.isArray(body) ? body : [body];
  if (!messages.length || messages.length > 100 || !messages.every(isJsonRpcMessage)) {
    throw new InvalidRequestError('The body is not a JSON-RPC 2.0 message (or a batch of up to 100).');
  }
}

/** Tool calls made in process with the caller's key: the same auth, limits, charges and idempotency as over HTTP. */
function inProcessCall(app: FastifyInstance, apiKey: string, requestId: string): ApiCall {
  return async (request): Promise<ApiAnswer> => {
    const res = await app.inject({
      method: request.method,
      url: request.path,
      headers: {
        'x-api-key': apiKey,
        'x-request-id': requestId,
        ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
      },
      ...(request.method === 'POST' ? { payload: request.body ?? {} } : {}),
    });
    const body = res.json<Record<string, unknown>>();
    if (res.statusCode < 300) return { ok: true, body };
    return {
      ok: false,
      status: res.statusCode,
      code: typeof body.error === 'string' ? body.error : `http_${res.statusCode}`,
      message: typeof body.message === 'string' ? body.message : `HTTP ${res.statusCode}`,
    };
  };
}

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (each POST is answered on
 * its own, so any instance behind a load balancer can take it). GET and DELETE, which open a
 * server-initiated stream or end a session, are answered 405: there are neither.
 */
export default async function mcpRoutes(app: FastifyInstance): Promise<void> {
  operationRoute(app, 'mcp', async (request, reply) => {
    checkMcpRequest(request.headers.accept, request.body);
    const server = createMcpServer(inProcessCall(app, presentedKey(request.headers)!, request.id));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: OPERATIONS.mcp.path,
      schema: { hide: true },
      handler: () => {
        throw new AppError(405, 'method_not_allowed', 'This MCP server is stateless: POST each message to /mcp.', undefined, {
          allow: 'POST',
        });
      },
    });
}
