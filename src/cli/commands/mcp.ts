import type { Command } from 'commander';

/**
 * `leadbase mcp`: an MCP server on stdin/stdout for an AI assistant, whose tool calls go to a
 * leadbase server (LEADBASE_URL) with a key (LEADBASE_API_KEY), charged as the same calls over HTTP.
 */
export function registerMcp(mcp: Command): void {
  mcp
    .option('--url <url>', 'the leadbase server (default: LEADBASE_URL, else http://127.0.0.1:3000)')
    .addHelpText(
      'after',
      '\nThe key is read from LEADBASE_API_KEY only (never a command-line argument, which other users can see).\n' +
        'An MCP client configuration:\n' +
        '  {"mcpServers": {"leadbase": {"command": "node", "args": ["/path/to/leadbase/bin/leadbase.js", "mcp"],\n' +
        '    "env": {"LEADBASE_URL": "https://leadbase.example.com", "LEADBASE_API_KEY": "lb_…"}}}}',
    )
    .action(async (opts: { url?: string }) => {
      const apiKey = process.env.LEADBASE_API_KEY?.trim();
      const baseUrl = opts.url ?? process.env.LEADBASE_URL?.trim() ?? 'http://127.0.0.1:3000';
      if (!apiKey) {
        process.stderr.write('leadbase mcp: set LEADBASE_API_KEY to the API key the tools are charged to.\n');
        process.exitCode = 2;
        return;
      }
      if (!/^https?:\/\//i.test(baseUrl)) {
        process.stderr.write(`leadbase mcp: ${baseUrl} is not an http(s) URL (--url or LEADBASE_URL).\n`);
        process.exitCode = 2;
        return;
      }
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const { createMcpServer } = await import('../../mcp/server.ts');
      const { remoteApiCall } = await import('../../mcp/remote.ts');
      const server = createMcpServer(remoteApiCall({ baseUrl, apiKey }));
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once('end', resolve);
      });
      await server.connect(transport);
      // Stdout carries the protocol: anything we say goes to stderr.
      process.stderr.write(`leadbase mcp: tools of ${baseUrl} on stdio\n`);
      await closed;
      await server.close();
    });
}
