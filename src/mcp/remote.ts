// Tool calls of `leadbase mcp` (stdio): requests to a leadbase server over HTTP with the typed
// client, which keeps one Idempotency-Key across its retries of a 429 or 503.
import { createLeadbaseClient, LeadbaseError } from '../client/index.ts';
import type { ApiAnswer, ApiCall } from './tools.ts';

export function remoteApiCall(options: { baseUrl: string; apiKey: string }): ApiCall {
  const client = createLeadbaseClient({ ...options, retries: 2, maxRetryDelayMs: 10_000 });
  // The tools name their paths from the operation descriptors; the typed client's path types cannot follow a runtime string.
  type Untyped = (path: string, init: object) => Promise<{ data?: unknown }>;
  const get = client.GET as unknown as Untyped;
  const post = client.POST as unknown as Untyped;
  return async (request): Promise<ApiAnswer> => {
    try {
      const { data } =
        request.method === 'GET'
          ? await get(request.path, {})
          : await post(request.path, {
              body: request.body ?? {},
              headers: request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {},
            });
      return { ok: true, body: data };
    } catch (error) {
      if (error instanceof LeadbaseError) return { ok: false, status: error.status, code: error.code, message: error.message };
      // The server cannot be reached: say so as the tool's error rather than end the session.
      return {
        ok: false,
        status: 0,
        code: 'unreachable',
        message: `leadbase at ${options.baseUrl} cannot be reached: ${(error as Error).message}`,
      };
    }
  };
}
