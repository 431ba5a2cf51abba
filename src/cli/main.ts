import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { KeyService } from '../keys/service.ts';
import { BillingService } from '../billing/service.ts';
import { creditsToUnits, unitsToCredits } from '../billing/units.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { openDatabase } from '../db/database.ts';
import { CliError, withDatabase } from './context.ts';
import { RATE_LIMITS_PER_MINUTE } from '../http/rate-limits.ts';
import { registerImportCompanies } from './import-companies.ts';
import { registerImportJobs } from './import-jobs.ts';
import { registerImportPeople } from './import-people.ts';
import { registerImportEngagement } from './import-engagement.ts';

function positiveId(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidArgumentError('must be a key id (a positive whole number)');
  return id;
}

function credits(value: string): number {
  try {
    return creditsToUnits(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('leadbase')
    .description('Self-hostable prepaid-credit data API for B2B sales prospecting.\nStorage comes from DATABASE_URL (default sqlite:./data/leadbase.sqlite); every command migrates it when needed.')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: false });

  program
    .command('serve')
    .description('Serve the API (PORT, HOST, DATABASE_URL, REDIS_URL from the environment)')
    .option('--first-key', 'on an empty database, create a first key with STARTER_CREDITS (default 100) and print it once')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)')
    .option('-H, --host <host>', 'address to bind (overrides HOST)')
    .action(async (opts: { firstKey?: boolean; port?: string; host?: string }) => {
      const config = loadConfig();
      if (opts.port !== undefined) config.port = positiveId(opts.port);
      if (opts.host !== undefined) config.host = opts.host;
      // Signals are handled from the start, so a stop during start-up is clean too.
      let server: Awaited<ReturnType<typeof startServer>> | undefined;
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
      if (pendingSignal) shutdown(pendingSignal);
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(async () => {
      const config = loadConfig();
      const handle = openDatabase(config.databaseUrl);
      try {
        const { applied } = await migrateToLatest(handle.db);
        console.log(applied.length ? `applied ${applied.join(', ')} to ${handle.location}` : `${handle.location} is up to date`);
      } finally {
        await handle.close();
      }
    });

  const keys = program.command('keys').description('Create, list and revoke API keys');
  keys
    .command('create')
    .description('Create a key; prints it once (only its hash is stored)')
    .requiredOption('-n, --name <name>', 'a label for the key, such as the team or customer')
    .option('-c, --credits <credits>', 'starting credits (up to 3 decimals)', credits, 0)
    .option('--json', 'print a JSON object {id, name, key, prefix, credits}')
    .action(async (opts: { name: string; credits: number; json?: boolean }) =>
      withDatabase(async ({ db }) => {
        const created = await new KeyService(db).create(opts.name, opts.credits);
        if (opts.json) {
          console.log(JSON.stringify({ id: created.id, name: created.name, key: created.key, prefix: created.prefix, credits: unitsToCredits(created.credits) }));
        } else {
          console.log(`key ${created.id} "${created.name}" with ${unitsToCredits(created.credits)} credits:\n\n  ${created.key}\n\nStore it now: it is not shown again.`);
        }
      }),
    );
  keys
    .command('list')
    .description('List keys (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) =>
      withDatabase(async ({ db }) => {
        const rows = (await new KeyService(db).list()).map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          credits: unitsToCredits(k.balance),
          created_at: iso(k.created_at),
          revoked_at: k.revoked_at === null ? null : iso(k.revoked_at),
          rate_limits: k.rate_limits ? (JSON.parse(k.rate_limits) as Record<string, number>) : {},
        }));
        if (opts.json) return console.log(JSON.stringify(rows));
        if (rows.length === 0) return console.log('no keys yet: leadbase keys create --name NAME --credits C');
        console.table(
          rows.map((r) => ({
            ...r,
            prefix: `${r.prefix}…`,
            revoked_at: r.revoked_at ?? '',
            rate_limits: Object.entries(r.rate_limits).map(([op, n]) => `${op}=${n}/min`).join(' '),
          })),
        );
      }),
    );
  keys
    .command('revoke')
    .description('Revoke a key: it is refused from then on (its ledger is kept)')
    .argument('<id>', 'key id (see keys list)', positiveId)
    .action(async (id: number) =>
      withDatabase(async ({ db }) => {
        if (!(await new KeyService(db).revoke(id))) throw new CliError(`no active key with id ${id}`);
        console.log(`key ${id} revoked`);
      }),
    );

  keys
    .command('limit')
    .description("Give a key its own requests-per-minute limit for one endpoint (\"higher limits on request\")")
    .argument('<id>', 'key id', positiveId)
    .argument('<operation>', `endpoint name: ${Object.keys(RATE_LIMITS_PER_MINUTE).join(', ')}`)
    .argument('[per-minute]', 'the new limit; omit with --reset', positiveId)
    .option('--reset', 'go back to the default limit of that endpoint')
    .action(async (id: number, operation: string, perMinute: number | undefined, opts: { reset?: boolean }) =>
      withDatabase(async ({ db }) => {
        if (!(operation in RATE_LIMITS_PER_MINUTE)) throw new CliError(`unknown endpoint "${operation}"; one of ${Object.keys(RATE_LIMITS_PER_MINUTE).join(', ')}`);
        if (!opts.reset && perMinute === undefined) throw new CliError('give a per-minute limit, or --reset');
        const limits = await new KeyService(db).setRateLimit(id, operation, opts.reset ? null : perMinute!);
        const effective = limits[operation] ?? RATE_LIMITS_PER_MINUTE[operation];
        console.log(`key ${id}: ${operation} limited to ${effective} requests per minute${opts.reset ? ' (default)' : ''}`);
      }),
    );

  const creditsCmd = program.command('credits').description("Manage a key's credits");
  creditsCmd
    .command('grant')
    .description('Add credits to a key (recorded in its ledger)')
    .argument('<key-id>', 'key id', positiveId)
    .argument('<credits>', 'credits to add (up to 3 decimals)', credits)
    .option('--note <text>', 'why, for the ledger')
    .action(async (keyId: number, units: number, opts: { note?: string }) =>
      withDatabase(async ({ db }) => {
        if (units <= 0) throw new CliError('grant a positive amount');
        const keysService = new KeyService(db);
        if (!(await keysService.get(keyId))) throw new CliError(`no key with id ${keyId}`);
        const balance = await new BillingService(db).grant(keyId, units, opts.note ?? null);
        console.log(`granted ${unitsToCredits(units)} credits to key ${keyId}; balance ${unitsToCredits(balance)}`);
      }),
    );
  creditsCmd
    .command('balance')
    .description("Show a key's balance")
    .argument('<key-id>', 'key id', positiveId)
    .action(async (keyId: number) =>
      withDatabase(async ({ db }) => {
        const key = await new KeyService(db).get(keyId);
        if (!key) throw new CliError(`no key with id ${keyId}`);
        console.log(unitsToCredits(key.balance));
      }),
    );

  program
    .command('usage')
    .description("A key's ledger (grants and charges), newest first, and its balance")
    .argument('<key-id>', 'key id', positiveId)
    .option('-l, --limit <n>', 'how many rows', (v) => positiveId(v), 50)
    .option('--json', 'print JSON')
    .action(async (keyId: number, opts: { limit: number; json?: boolean }) =>
      withDatabase(async ({ db }) => {
        const key = await new KeyService(db).get(keyId);
        if (!key) throw new CliError(`no key with id ${keyId}`);
        const rows = (await new BillingService(db).usage(keyId, opts.limit)).map((r) => ({
          time: iso(r.created_at),
          kind: r.kind,
          credits: unitsToCredits(r.kind === 'grant' ? r.amount : -r.amount),
          operation: r.operation ?? '',
          request_id: r.request_id ?? '',
          note: r.note ?? '',
        }));
        if (opts.json) return console.log(JSON.stringify({ key_id: keyId, balance: unitsToCredits(key.balance), entries: rows }));
        console.log(`key ${keyId} "${key.name}": balance ${unitsToCredits(key.balance)} credits`);
        if (rows.length) console.table(rows);
      }),
    );

  const importCommand = program.command('import').description('Import data from files and connectors');
  registerImportCompanies(importCommand);
  registerImportJobs(importCommand);
  registerImportPeople(importCommand);
  registerImportEngagement(importCommand);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    console.error(`leadbase: ${message}`);
    process.exitCode = 1;
  }
}
