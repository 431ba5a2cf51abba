// Where a PostgreSQL jobs search spends its time, on a schema an earlier `jobs.bench.ts --keep`
// run left: for each query of the mix, the server's and this process's CPU per search (the
// backend's /proc counters, so a loaded machine inflates them less than wall-clock), and every
// statement of a search EXPLAIN ANALYZEd, summed (server-side time), beside wall-clock.
//   DATABASE_URL=postgres://… node --import tsx bench/jobs-pg-explain.ts --schema=bench_jobs_1a2b3c4d
//   --runs=10 (searches EXPLAINed per query)   --reps=30 (searches timed for CPU)   --only=phrase   --verbose
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import { CompanyService } from '../src/companies/service.ts';
import { JobService } from '../src/jobs/service.ts';
import { MIX } from './support/jobs-mix.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const schema = arg('schema', '');
const url = process.env.DATABASE_URL;
if (!schema || !url?.startsWith('postgres')) throw new Error('DATABASE_URL (postgres://…) and --schema=… are required');
const RUNS = Number(arg('runs', '10'));
const REPS = Number(arg('reps', '30'));
const only = arg('only', '');
const verbose = process.argv.includes('--verbose');
const NOW = Date.parse('2026-11-20T12:00:00Z');

// One connection, so that the backend whose CPU is read is the one that searches.
const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
let captured: CompiledQuery[] = [];
const db = new Kysely<any>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    captured.push(event.query);
  },
});
const jobs = new JobService({ db, companies: new CompanyService({ db }) });
const backendPid = Number((await pool.query('select pg_backend_pid() as pid')).rows[0].pid);
const backendCpuMs = () => {
  const fields = readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
};
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

console.log('| query | CPU per search: server / client ms | server-side (EXPLAIN ANALYZE) p50 / p95 ms | wall p50 / p95 ms |');
console.log('|---|---|---|---|');
for (const [name, body] of MIX) {
  if (only && !name.startsWith(only)) continue;
  for (let i = 0; i < 5; i++) await jobs.search(body(i), NOW);
  const cpu0 = backendCpuMs();
  const client0 = process.cpuUsage();
  for (let i = 0; i < REPS; i++) await jobs.search(body(i), NOW);
  const client = process.cpuUsage(client0);
  const serverCpu = (backendCpuMs() - cpu0) / REPS;

  const server: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    captured = [];
    const t = performance.now();
    await jobs.search(body(i), NOW);
    wall.push(performance.now() - t);
    const statements = captured;
    captured = [];
    let sum = 0;
    for (const q of statements) {
      // A statement run under SET LOCAL is explained under the same setting.
      if (/^(begin|commit|rollback)/i.test(q.sql)) continue;
      if (/^set local /i.test(q.sql)) {
        await pool.query(q.sql.replace(/^set local /i, 'set '));
        continue;
      }
      const res = await pool.query(`explain (analyze, buffers, format json) ${q.sql}`, q.parameters as unknown[]);
      const plan = (res.rows[0] as Record<string, { 'Execution Time': number; 'Planning Time': number }[]>)['QUERY PLAN'][0];
      const ms = plan['Execution Time'] + plan['Planning Time'];
      sum += ms;
      if (verbose && ms > 10) console.log(`  ${ms.toFixed(1)} ms: ${q.sql.slice(0, 300)} ${JSON.stringify(q.parameters)}`);
    }
    await pool.query('reset all');
    server.push(sum);
  }
  const f = (x: number) => x.toFixed(1);
  console.log(
    `| ${name} | ${f(serverCpu)} / ${f((client.user + client.system) / 1000 / REPS)} | ${f(percentile(server, 50))} / ${f(percentile(server, 95))} | ${f(percentile(wall, 50))} / ${f(percentile(wall, 95))} |`,
  );
}
await db.destroy();
