// Serve processes of a test cluster on a PostgreSQL database of their own, validating lists whose
// addresses live on one strict fake mail host (probe limits' cluster tests).
import assert from 'node:assert/strict';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { mailWorldEnv, type MailWorld } from './fake-smtp.ts';
import { until } from './until.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';

/** A strict host serving `domains` domains (mx.<name>): `v…` addresses exist, `x…` do not. */
export async function strictHost(world: MailWorld, name: string, domains: number, tarpitMs: number) {
  const names = Array.from({ length: domains }, (_, i) => `d${i}.${name}.test`);
  const mxHost = `mx.${name}.test`;
  const mx = await world.domain(names[0], { mxHost, tarpitMs, mailboxes: Array.from({ length: 2000 }, (_, i) => `v${i}`) });
  for (const domain of names.slice(1)) world.dns.mx(domain, [{ exchange: mxHost, priority: 10 }]);
  const list = (n: number, offset = 0) =>
    Array.from({ length: n }, (_, i) => `${(offset + i) % 2 ? 'x' : 'v'}${offset + i}@${names[i % domains]}`);
  return { mx, mxHost, list };
}

export class Cluster {
  servers: ServerProcess[] = [];
  key = '';
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const server = await startServerProcess(this.env);
      this.key ||= server.key ?? '';
      this.servers.push(server);
    }
    assert.ok(this.key, 'the first server printed a key');
  }

  async post(server: ServerProcess, emails: string[]): Promise<string> {
    const res = await fetch(`${server.url}/email-validate/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': this.key, 'content-type': 'application/json' },
      body: JSON.stringify({ emails }),
    });
    assert.equal(res.status, 202, await res.clone().text());
    return ((await res.json()) as BulkJobView).id;
  }

  async status(server: ServerProcess, id: string): Promise<BulkJobView> {
    return (await (await fetch(`${server.url}/email-validate/bulk/${id}`, { headers: { 'x-api-key': this.key } })).json()) as BulkJobView;
  }

  async done(server: ServerProcess, id: string, ms = 180_000): Promise<BulkJobView> {
    await until(async () => (await this.status(server, id)).status === 'done', ms, 250);
    return this.status(server, id);
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
    this.servers = [];
  }
}

export const baseEnv = (world: MailWorld, databaseUrl: string, limit: number, ttlMs: number): NodeJS.ProcessEnv => ({
  DATABASE_URL: databaseUrl,
  ...mailWorldEnv(world),
  EMAIL_MAX_SESSIONS_PER_MX_HOST: String(limit),
  EMAIL_PROBE_LEASE_TTL_MS: String(ttlMs),
  // Waiting for a slot counts against the deadline: generous, so a busy machine's slowness is not answered unknown.
  EMAIL_DEADLINE_MS: '120000',
  EMAIL_DOMAIN_SESSIONS_PER_MINUTE: '100000',
  EMAIL_RECHECK_POLL_MS: '600000',
  STARTER_CREDITS: '1000',
  CRAWL_ENABLED: '0',
});
