import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADBASE_BIN as BIN } from '../support/cli.ts';

describe('leadbase CLI', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 30_000 });

  it('has --help on every command', () => {
    for (const args of [
      [],
      ['serve'],
      ['migrate'],
      ['keys'],
      ['keys', 'create'],
      ['keys', 'list'],
      ['keys', 'revoke'],
      ['keys', 'limit'],
      ['keys', 'webhook-secret'],
      ['credits', 'grant'],
      ['usage'],
      ['validate'],
      ['import'],
      ['jobs'],
      ['jobs', 'counted-terms'],
      ['jobs', 'count-term'],
    ]) {
      const res = run(...args, '--help');
      assert.equal(res.status, 0, `${args.join(' ')} --help: ${res.stderr}`);
      assert.match(res.stdout, /Usage: leadbase/);
    }
  });

  it('migrates, creates keys (shown once), lists without secrets, grants, shows usage, revokes', () => {
    assert.equal(run('migrate').status, 0);
    const created = run('keys', 'create', '--name', 'Acme growth', '--credits', '12.5', '--json');
    assert.equal(created.status, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.equal(typeof key.id, 'number');
    assert.match(key.key, /^lb_/);
    assert.equal(key.credits, 12.5);

    const listed = run('keys', 'list', '--json');
    assert.ok(!listed.stdout.includes(key.key), 'the secret is never listed');
    assert.deepEqual(
      JSON.parse(listed.stdout).map((k: { name: string; credits: number }) => [k.name, k.credits]),
      [['Acme growth', 12.5]],
    );

    const granted = run('credits', 'grant', String(key.id), '7.5', '--note', 'top-up');
    assert.equal(granted.status, 0, granted.stderr);
    assert.match(granted.stdout, /balance 20/);

    const usage = JSON.parse(run('usage', String(key.id), '--json').stdout);
    assert.equal(usage.balance, 20);
    assert.deepEqual(
      usage.entries.map((e: { kind: string; credits: number }) => [e.kind, e.credits]),
      [
        ['grant', 7.5],
        ['grant', 12.5],
      ],
    );

    const limited = run('keys', 'limit', String(key.id), 'email-validate', '5000');
    assert.equal(limited.status, 0, limited.stderr);
    assert.match(limited.stdout, /email-validate limited to 5000 requests per minute/);
    assert.deepEqual(JSON.parse(run('keys', 'list', '--json').stdout)[0].rate_limits, { 'email-validate': 5000 });
    assert.match(
      run('keys', 'limit', String(key.id), 'email-validate', '--reset').stdout,
      /limited to 1000 requests per minute \(default\)/,
    );
    assert.notEqual(run('keys', 'limit', String(key.id), 'no-such-endpoint', '5').status, 0);

    const secret = JSON.parse(run('keys', 'webhook-secret', String(key.id), '--json').stdout) as { webhook_secret: string };
    assert.match(secret.webhook_secret, /^whsec_[0-9a-f]{48}$/);
    assert.equal(JSON.parse(run('keys', 'webhook-secret', String(key.id), '--json').stdout).webhook_secret, secret.webhook_secret);
    const rotated = run('keys', 'webhook-secret', String(key.id), '--rotate');
    assert.equal(rotated.status, 0, rotated.stderr);
    assert.doesNotMatch(rotated.stdout, new RegExp(secret.webhook_secret));
    assert.equal(run('keys', 'webhook-secret', '999').status, 1);

    assert.equal(run('keys', 'revoke', String(key.id)).status, 0);
    const again = run('keys', 'revoke', String(key.id));
    assert.equal(again.status, 1);
    assert.match(again.stderr, /no active key/);
    const bad = run('credits', 'grant', String(key.id), '0.0001');
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /at most 3 decimals/);
  });

  it('serve --first-key prints a first key once on an empty database and stops cleanly on SIGTERM', async () => {
    const fresh = { ...env, DATABASE_URL: `sqlite:${join(dir, 'serve.sqlite')}`, PORT: '0' };
    const first = await serveOnce(fresh);
    assert.match(first.output, /Created your first API key/);
    assert.deepEqual(first.credits, { credits: 100 });
    assert.equal(first.exitCode, 0, `graceful shutdown exits 0: ${first.output}`);
    const second = await serveOnce(fresh);
    assert.doesNotMatch(second.output, /Created your first API key/, 'only on an empty database');
    assert.equal(second.exitCode, 0, second.output);
  });
});

async function serveOnce(env: NodeJS.ProcessEnv): Promise<{ output: string; credits?: unknown; exitCode: number | null }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--first-key'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 20_000;
  while (!/listening on (http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const address = output.match(/listening on (http:\/\/\S+)/)![1];
  const key = output.match(/\b(lb_[A-Za-z0-9]{32})\b/)?.[1];
  let credits: unknown;
  if (key) credits = await (await fetch(`${address}/credits`, { headers: { 'X-API-Key': key } })).json();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  child.kill('SIGTERM');
  const exitCode = await exited;
  if (exitCode !== 0) output += `\n[exit ${exitCode}]`;
  return { output, credits, exitCode };
}
