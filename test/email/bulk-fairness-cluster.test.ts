// Fair shares between keys across a cluster: three `leadbase serve` processes on one PostgreSQL
// database (pg-boss) and Redis. A short list of one key, submitted after another key's long lists,
// ends within its time alone (measured first, on the same cluster) plus a margin.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { mailWorldEnv, startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { runLeadbase } from '../support/cli.ts';
import { until } from '../support/until.ts';
import { PG_SKIP, POSTGRES_URL, REDIS_SKIP, REDIS_URL } from '../support/db.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';

const SLICE_MS = 1000;

/** `url` with Redis database `db` (the path). */
const redisDb = (url: string, db: number) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();
/** One slice for a worker to come free, and a share of a busy 2-core machine with the long lists' runs. */
const MARGIN_MS = SLICE_MS + 7000;

describe(
  'bulk fair shares between keys on three serve processes (postgres, pg-boss, redis)',
  {
    skip: PG_SKIP || REDIS_SKIP,
    timeout: 300_000,
  },
  () => {
    const database = `leadbase_fair_${randomBytes(5).toString('hex')}`;
    let world: MailWorld;
    let env: NodeJS.ProcessEnv;
    const servers: ServerProcess[] = [];

    before(async () => {
      world = await startMailWorld();
      for (const domain of ['big.test', 'more.test', 'solo.test', 'small.test']) await world.domain(domain, { acceptAll: true });
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      const url = new URL(POSTGRES_URL!);
      url.pathname = `/${database}`;
      env = {
        DATABASE_URL: url.toString(),
        // A Redis database of its own: the processes' rate-limit counters are named by key id, as other suites' are.
        REDIS_URL: redisDb(REDIS_URL!, 7),
        ...mailWorldEnv(world),
        BULK_SLICE_MS: String(SLICE_MS),
        STARTER_CREDITS: '100',
        CRAWL_ENABLED: '0',
      };
      servers.push(await startServerProcess(env));
      servers.push(await startServerProcess(env), await startServerProcess(env));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await world?.close();
      if (POSTGRES_URL) {
        const admin = new pg.Client({ connectionString: POSTGRES_URL });
        await admin.connect();
        await admin.query(`drop database if exists ${database} with (force)`);
        await admin.end();
      }
    });

    const post = async (server: ServerProcess, key: string, emails: string[]) => {
      const res = await fetch(`${server.url}/email-validate/bulk`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ emails }),
      });
      assert.equal(res.status, 202, await res.clone().text());
      return (await res.json()) as BulkJobView;
    };
    const status = async (server: ServerProcess, key: string, id: string) =>
      (await (await fetch(`${server.url}/email-validate/bulk/${id}`, { headers: { 'x-api-key': key } })).json()) as BulkJobView;
    const list = (domain: string, n: number, tag = '') => Array.from({ length: n }, (_, i) => `p${tag}${i}@${domain}`);
    const timeToDone = async (key: string, domain: string) => {
      const started = Date.now();
      const job = await post(servers[2], key, list(domain, 100));
      await until(async () => (await status(servers[2], key, job.id)).status === 'done', 120_000, 200);
      assert.equal((await status(servers[2], key, job.id)).processed, 100);
      return Date.now() - started;
    };

    it("finishes a 100-address list submitted after another key's 100,000-address list within its time alone plus a margin", async (t) => {
      const bigKey = servers[0].key!;
      const created = await runLeadbase(['keys', 'create', '--name', 'small', '--credits', '10', '--json'], { ...process.env, ...env });
      assert.equal(created.status, 0, created.stderr);
      const smallKey = (JSON.parse(created.stdout) as { key: string }).key;

      const alone = await timeToDone(smallKey, 'solo.test');
      // The long lists outnumber the cluster's workers (two per process).
      const bigJobs = [await post(servers[0], bigKey, list('big.test', 100_000))];
      for (let i = 0; i < 6; i++) bigJobs.push(await post(servers[1], bigKey, list('more.test', 5_000, `l${i}-`)));
      await until(async () => (await status(servers[0], bigKey, bigJobs[0].id)).status === 'running', 60_000, 200);
      const beside = await timeToDone(smallKey, 'small.test');
      const bigDone = (await status(servers[0], bigKey, bigJobs[0].id)).processed;
      for (const job of bigJobs)
        await fetch(`${servers[0].url}/email-validate/bulk/${job.id}`, { method: 'DELETE', headers: { 'x-api-key': bigKey } });
      const figures = `alone ${alone} ms, beside the long lists ${beside} ms (the long list had ${bigDone} results)`;
      t.diagnostic(`three serve processes: ${figures}`);
      assert.ok(bigDone < 100_000, `the long list ended first: ${figures}`);
      assert.ok(beside <= alone + MARGIN_MS, figures);
    });
  },
);
