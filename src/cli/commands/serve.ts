import type { Command } from 'commander';
import { unitsToCredits } from '../../billing/units.ts';
import { positiveId } from '../arguments.ts';
import { exitOnSignals, exitOnStartFailure } from '../shutdown.ts';

/** `leadbase serve`: the API server. Its modules load only when it runs. */
export function registerServe(serve: Command): void {
  serve
    .option('--first-key', 'on an empty database, create a first key with STARTER_CREDITS (default 100) and print it once')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)')
    .option('-H, --host <host>', 'address to bind (overrides HOST)')
    .option('--no-crawl', 'do not run scheduled crawls in this instance (run them in `leadbase worker`)')
    .action(async (opts: { firstKey?: boolean; port?: string; host?: string; crawl: boolean }) => {
      const { loadConfig } = await import('../../platform/config.ts');
      const { startServer } = await import('../../server.ts');
      const config = loadConfig();
      if (opts.port !== undefined) config.port = positiveId(opts.port);
      if (opts.host !== undefined) config.host = opts.host;
      if (!opts.crawl) config.crawl.enabled = false;
      // Signals are handled from the start, so a stop during start-up is bounded too.
      const starting = startServer(config, { firstKey: opts.firstKey });
      exitOnSignals({
        timeoutMs: config.timeouts.shutdownMs,
        drain: async () => (await starting).stop(),
        log: (details, message) => process.stderr.write(`leadbase serve: ${message} ${JSON.stringify(details)}\n`),
      });
      const server = await starting.catch((error: unknown) => exitOnStartFailure('serve', error));
      if (server.firstKey) {
        process.stdout.write(
          `\nCreated your first API key (shown once, store it now):\n\n  ${server.firstKey.key}\n\n` +
            `It has ${unitsToCredits(server.firstKey.credits)} credits. Try:\n` +
            `  curl -s -H 'X-API-Key: ${server.firstKey.key}' ${server.address}/credits\n\n`,
        );
      }
      // Before the listening line, which tells scripts the server is ready: both are there by then.
      if (server.emptyStores)
        process.stdout.write('The stores are empty: lookups find nothing until you run `node bin/leadbase.js bootstrap` (docs/data.md).\n');
      process.stdout.write(`leadbase listening on ${server.address} (docs at ${server.address}/docs)\n`);
    });
}
