// The console's budgets (docs/console.md):
//   npm run bench -- console            1,000,000 ledger rows
//   npm run bench -- console --quick    100,000 ledger rows
// 1. Its JavaScript, gzipped, at most 150 KB.
// 2. The overview interactive (its store counts drawn) within 1 s of navigation on localhost, in
//    Debian's chromium (skipped, and said so, when it is not installed).
// 3. A key's usage chart over 90 days with 1 million ledger rows: GET /admin/keys/{id}/usage (one
//    aggregate query) in under 200 ms, on SQLite and, when DATABASE_URL names one, PostgreSQL.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/platform/config.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { startTestApp } from '../test/support/app.ts';
import { openBenchDatabase } from './support/bench-db.ts';

const quick = process.argv.includes('--quick');
const ROWS = quick ? 100_000 : 1_000_000;
const ADMIN_TOKEN = 'console-bench-admin-token-0123456789';
const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..');
let failed = false;

function verdict(name: string, value: number, budget: number, unit: string): void {
  const ok = value <= budget;
  if (!ok) failed = true;
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${value.toFixed(unit === 'KB' ? 1 : 0)} ${unit} (budget ${budget} ${unit})`);
}

// 1. Bundle size.
const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.js')], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(built.stderr);
const js = readFileSync(join(root, 'dist', 'console', 'app.js'));
verdict('console JavaScript, gzipped', gzipSync(js).length / 1024, 150, 'KB');

/** Fills the key's ledger with `ROWS` charges over the last 90 days, five operations, in one statement. */
async function fillLedger(db: Parameters<typeof migrateToLatest>[0], dialect: string, keyId: number, now: number): Promise<void> {
  const step = Math.floor((90 * 86_400_000) / ROWS);
  const op = sql`case i % 5 when 0 then 'email-validation' when 1 then 'company-search' when 2 then 'jobs-finder'
    when 3 then 'email-finder' else 'role-finder' end`;
  if (dialect === 'postgres') {
    await sql`insert into credit_ledger (key_id, kind, amount, operation, request_id, note, created_at)
      select ${keyId}, 'charge', 1000, ${op}, null, null, ${sql.lit(now)} - i * ${sql.lit(step)}
      from generate_series(0::bigint, ${sql.lit(ROWS - 1)}) as s(i)`.execute(db);
    await sql`analyze credit_ledger`.execute(db);
  } else {
    await sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${sql.lit(ROWS - 1)})
      insert into credit_ledger (key_id, kind, amount, operation, request_id, note, created_at)
      select ${keyId}, 'charge', 1000, ${op}, null, null, ${sql.lit(now)} - i * ${sql.lit(step)} from s`.execute(db);
    await sql`analyze`.execute(db);
  }
}

for (const dialect of ['sqlite', ...(process.env.DATABASE_URL?.startsWith('postgres') ? ['postgres'] : [])]) {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-console-bench-'));
  const bench = await openBenchDatabase(dialect, { dir, pgUrl: process.env.DATABASE_URL, schemaPrefix: 'console_bench' });
  await migrateToLatest(bench.handle.db);
  const t = await startTestApp(undefined, {
    database: { ...bench.handle, url: '', destroy: () => bench.drop() },
    deps: { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }) },
  });
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  try {
    const started = Date.now();
    await fillLedger(bench.handle.db, dialect, t.keyId, Date.now());
    console.log(`${dialect}: ${ROWS.toLocaleString('en-US')} ledger rows written in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // 3. The usage chart's query, warm (the first call also pays for the query plan).
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < 6; i++) {
      const at = performance.now();
      const res = await t.inject({ method: 'GET', url: `/admin/keys/${t.keyId}/usage?days=90`, headers: admin });
      if (res.statusCode !== 200) throw new Error(res.body);
      if (i > 0) times.push(performance.now() - at);
      points = res.json().usage.length;
    }
    times.sort((a, b) => a - b);
    console.log(`${dialect}: usage over 90 days → ${points} points (day × operation)`);
    verdict(`${dialect}: usage chart of a key with ${ROWS.toLocaleString('en-US')} ledger rows (median of 5)`, times[2], 200, 'ms');

    // 2. The overview, interactive, in Chromium (once, on SQLite).
    if (dialect === 'sqlite') {
      if (!existsSync(CHROMIUM)) console.log('SKIP  overview interactive: chromium not installed (apt-get install chromium)');
      else {
        const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
        const signIn = await fetch(`${base}/admin/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: ADMIN_TOKEN }),
        });
        const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0].split('=');
        const browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
        });
        try {
          const context = await browser.newContext();
          await context.addCookies([{ name: cookie[0], value: cookie.slice(1).join('='), url: base }]);
          const page = await context.newPage();
          // A first visit warms the server's and the browser's caches of nothing but the process itself.
          await page.goto(`${base}/console#/overview`);
          await page.getByRole('heading', { name: 'Stores' }).waitFor();
          const runs: number[] = [];
          for (let i = 0; i < 5; i++) {
            const fresh = await context.newPage();
            const at = performance.now();
            await fresh.goto(`${base}/console#/overview`);
            await fresh.getByRole('heading', { name: 'Stores' }).waitFor();
            runs.push(performance.now() - at);
            await fresh.close();
          }
          runs.sort((a, b) => a - b);
          verdict('overview interactive after navigation (median of 5)', runs[2], 1000, 'ms');
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
