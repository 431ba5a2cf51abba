import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from '../../mcp/server.ts';
import type { ApiAnswer, ApiCall } from '../../mcp/tools.ts';
import { OPERATIONS, routeOptions } from '../operations.ts';

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
  app.post(OPERATIONS.mcp.path, routeOptions('mcp'), async (request, reply) => {
    const server = createMcpServer(inProcessCall(app, String(request.headers['x-api-key']).trim(), request.id));
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
      handler: async (_request, reply) =>
        reply
          .status(405)
          .header('allow', 'POST')
          .send({ error: 'method_not_allowed', message: 'This MCP server is stateless: POST each message to /mcp.' }),
    });
}
