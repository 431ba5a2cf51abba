import type { Command } from 'commander';
import type { RunningServer } from '../../server.ts';
import { unitsToCredits } from '../../billing/units.ts';
import { positiveId } from '../arguments.ts';

/** `leadbase serve`: the API server. Its modules load only when it runs. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the API (PORT, HOST, DATABASE_URL, REDIS_URL from the environment)')
    .option('--first-key', 'on an empty database, create a first key with STARTER_CREDITS (default 100) and print it once')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)')
    .option('-H, --host <host>', 'address to bind (overrides HOST)')
    .option('--no-crawl', 'do not run scheduled crawls in this instance (run them in `leadbase worker`)')
    .action(async (opts: { firstKey?: boolean; port?: string; host?: string; crawl: boolean }) => {
      const { loadConfig } = await import('../../config.ts');
      const { startServer } = await import('../../server.ts');
      const config = loadConfig();
      if (opts.port !== undefined) config.port = positiveId(opts.port);
      if (opts.host !== undefined) config.host = opts.host;
      if (!opts.crawl) config.crawl.enabled = false;
      // Signals are handled from the start, so a stop during start-up is clean too.
      let server: RunningServer | undefined;
      let pendingSignal: string | undefined;
      const shutdown = (signal: string) => {
        if (!server) {
          pendingSignal = signal;
          return;
        }
        server.app.log.info({ signal }, 'shutting down');
        server.stop().then(
          () => process.exit(0),
          (error) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));

      server = await startServer(config, { firstKey: opts.firstKey });
      if (server.firstKey) {
        process.stdout.write(
          `\nCreated your first API key (shown once, store it now):\n\n  ${server.firstKey.key}\n\n` +
            `It has ${unitsToCredits(server.firstKey.credits)} credits. Try:\n` +
            `  curl -s -H 'X-API-Key: ${server.firstKey.key}' ${server.address}/credits\n\n`,
        );
      }
      process.stdout.write(`leadbase listening on ${server.address} (docs at ${server.address}/docs)\n`);
      if (server.emptyStores)
        process.stdout.write('The stores are empty: lookups find nothing until you run `npx leadbase bootstrap` (docs/data.md).\n');
      if (pendingSignal) shutdown(pendingSignal);
    });
}
