// What the tests of charges share: the price rule applied to an answer, and an MCP client of a
// listening app (the tools are charged as their operations are).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPERATIONS, PRICE_OF, type ChargedOperationId } from '../../src/operations/catalogue.ts';

/** What the operation's price rule says an answer costs (millicredits), on either surface's shape (ours or LeadMagic v1). */
export function priceOf(id: ChargedOperationId, answer: Record<string, unknown>): number {
  switch (id) {
    case 'email-validate':
      return PRICE_OF[id](answer as { email_status: 'valid' });
    case 'email-finder':
      return PRICE_OF[id](answer as { status: string });
    case 'jobs-finder':
      return PRICE_OF[id](answer as { results: unknown[] });
    case 'employee-finder':
    case 'people-search':
      return PRICE_OF[id](answer as { data: unknown[] });
    default:
      return PRICE_OF[id](answer.message === OPERATIONS[id].messages.found);
  }
}

/** An MCP client connected to the app at `baseUrl`, sending these headers (the API key) with each request. */
export async function connectMcp(baseUrl: string, headers: Record<string, string>, name = 'leadbase-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}
