// The MCP server: tools/list and tools/call over any transport (stdio for `leadbase mcp`,
// Streamable HTTP for /mcp), built on the SDK's low-level Server because our tools' schemas are
// JSON Schema already (the TypeBox contract), not zod.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { requestOf, toolDefinitions, toolNamed, type ApiCall } from './tools.ts';

export const MCP_SERVER_INFO = { name: 'leadbase', version: '0.1.0' };

// /mcp builds a server per request (stateless): what does not depend on the request is made once.
// The SDK would otherwise build a JSON Schema validator (a new Ajv) for every server.
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();
const TOOL_LIST = { tools: toolDefinitions() };

const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];

/** An MCP server whose tool calls are made through `call` (with the caller's key). */
export function createMcpServer(call: ApiCall): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    jsonSchemaValidator: SHARED_VALIDATOR,
    instructions:
      'leadbase: B2B prospecting data (email validation and finding, companies, funding, people, jobs) paid in prepaid credits. ' +
      'Each tool description gives its price; check_credits and the list_* tools are free. ' +
      'Pass idempotency_key when you may retry a charged call.',
  });
  server.setRequestHandler(ListToolsRequestSchema, () => TOOL_LIST);

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const tool = toolNamed(name);
    if (!tool) return { isError: true, content: text({ error: 'unknown_tool', message: `No tool named ${name}.` }) };
    const answer = await call(requestOf(tool, args));
    if (!answer.ok) {
      // The API's envelope, as the tool's error: the assistant reads what to change (a field, the balance).
      return { isError: true, content: text({ error: answer.code, message: answer.message, status: answer.status }) };
    }
    const structured = Array.isArray(answer.body) ? { items: answer.body } : (answer.body as Record<string, unknown>);
    return { content: text(structured), structuredContent: structured };
  });
  return server;
}
