// Child process for bench/platform.bench.ts: serves either bare Fastify or leadbase on a free port,
// so the load generator and the server each get a core of their own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../src/platform/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createServices } from '../src/services.ts';
import { buildApp } from '../src/http/app.ts';
import { RATE_LIMITS_PER_MINUTE } from '../src/operations/catalogue.ts';
import { createLogger } from '../src/platform/logger.ts';
import { logDestination } from '../src/platform/log-destination.ts';
import { SAMPLE_COMPANY } from '../test/support/sample-company.ts';

const mode = process.argv[2];
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return { micros: user + system };
};
// Exit normally on a signal so tools such as --cpu-prof can write their output.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));

if (mode === 'bare') {
  const app = Fastify({ logger: false });
  const body = [
    { id: 1, name: 'Full Time' },
    { id: 2, name: 'Part Time' },
    { id: 3, name: 'Temporary' },
  ];
  app.get('/constant', async () => body);
  app.get('/__bench/cpu', async () => cpuMicros());
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`READY ${address}\n`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-bench-'));
  const config = { ...loadConfig({}), databaseUrl: `sqlite:${join(dir, 'bench.sqlite')}`, logLevel: 'info' };
  // As in production: the process logger at info level, one access line per request, written as
  // standard output is, but to a file rather than to this benchmark's terminal.
  const logger = createLogger({ level: config.logLevel, destination: logDestination(join(dir, 'access.log')) });
  const handle = openDatabase(config.databaseUrl);
  await migrateToLatest(handle.db);
  const services = createServices({ db: handle.db, dialect: handle.dialect, config, logger });
  // The limiter still runs on every request; the budget is raised so the load is measured, not refused.
  const rateLimits = Object.fromEntries(Object.keys(RATE_LIMITS_PER_MINUTE).map((k) => [k, 1e9]));
  const app = await buildApp({ config, services, rateLimits, logger: mode === 'leadbase-unlogged' ? false : logger });
  const key = await services.keys.create('bench', 1_000_000_000);
  // The surfaces benchmark looks this company up through our path, the v1 path and an MCP tool.
  if (mode === 'leadbase-surfaces') await services.companies.upsertCompany(SAMPLE_COMPANY, 'bench');
  // Not part of the product: lets the benchmark read this process's CPU time.
  app.get('/__bench/cpu', { schema: { hide: true } }, async () => cpuMicros());
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`READY ${address} ${key.key}\n`);
}
