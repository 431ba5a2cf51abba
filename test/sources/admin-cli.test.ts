import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/platform/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { runLeadbase } from '../support/cli.ts';
import { GREENHOUSE_GA, greenhouseBoard, startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

const ADMIN = { authorization: 'Bearer s3cret-admin' };

describe('admin API for sources', () => {
  let world: CrawlWorld;
  let t: TestApp;
  let off: TestApp;

  before(async () => {
    world = await startCrawlWorld();
    greenhouseBoard(world, 'ga', () => GREENHOUSE_GA);
    t = await startTestApp(undefined, {
      deps: { config: loadConfig({ ADMIN_TOKEN: 's3cret-admin', CRAWL_ENABLED: '0' }), crawlAllowPrivateHosts: [world.host] },
    });
    off = await startTestApp();
  });
  after(async () => {
    await t.close();
    await off.close();
    await world.close();
  });

  it('answers only to the admin token, never to an API key; without ADMIN_TOKEN it is off', async () => {
    const none = await t.inject({ method: 'GET', url: '/admin/sources' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().error, 'missing_admin_token');
    const key = await t.get('/admin/sources');
    assert.equal(key.statusCode, 401, 'an API key is not an admin token');
    const wrong = await t.inject({ method: 'GET', url: '/admin/sources', headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.json().error, 'invalid_admin_token');
    const disabled = await off.inject({ method: 'GET', url: '/admin/sources', headers: ADMIN });
    assert.equal(disabled.statusCode, 404);
    assert.match(disabled.json().message, /ADMIN_TOKEN/);
  });

  it('adds (once), lists, runs, pauses, resumes and removes a source; bad input is a 400 in the envelope', async () => {
    const body = { type: 'greenhouse', locator: 'ga', base_url: world.origin, company_name: 'General Assembly', every: '2h' };
    const created = await t.inject({ method: 'POST', url: '/admin/sources', headers: ADMIN, payload: body });
    assert.equal(created.statusCode, 201);
    const id = created.json().id as number;
    assert.equal(created.json().every, '2h');
    const again = await t.inject({ method: 'POST', url: '/admin/sources', headers: ADMIN, payload: body });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().id, id);
    assert.equal(again.json().created, false);
    const bad = await t.inject({ method: 'POST', url: '/admin/sources', headers: ADMIN, payload: { type: 'myspace', locator: 'x' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'invalid_request');
    assert.match(bad.json().message, /type must be one of/);
    const many = await t.inject({
      method: 'POST',
      url: '/admin/sources',
      headers: ADMIN,
      payload: { sources: [{ type: 'lever', locator: 'acme' }, { type: 'feed', locator: 'ftp://x' }, 7] },
    });
    assert.deepEqual(many.json(), {
      read: 3,
      added: 1,
      updated: 0,
      existing: 0,
      refused: [
        { line: 2, reason: 'locator must be an http or https URL' },
        { line: 3, reason: 'not a JSON object' },
      ],
    });
    const run = await t.inject({ method: 'POST', url: `/admin/sources/${id}/run`, headers: ADMIN });
    assert.equal(run.statusCode, 200);
    assert.equal(run.json().outcome, 'changed');
    const shown = await t.inject({ method: 'GET', url: `/admin/sources/${id}`, headers: ADMIN });
    assert.equal(shown.json().runs.length, 1);
    assert.ok(shown.json().last_success_at);
    const paused = await t.inject({ method: 'POST', url: `/admin/sources/${id}/pause`, headers: ADMIN });
    assert.equal(paused.json().status, 'paused');
    const listed = await t.inject({ method: 'GET', url: '/admin/sources?status=paused', headers: ADMIN });
    assert.deepEqual(
      listed.json().sources.map((s: { id: number }) => s.id),
      [id],
    );
    const resumed = await t.inject({ method: 'POST', url: `/admin/sources/${id}/resume`, headers: ADMIN });
    assert.equal(resumed.json().status, 'active');
    const metrics = (await t.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /leadbase_source_runs_total\{type="greenhouse"\} 1/);
    assert.match(metrics, /leadbase_source_listings_changed_total\{type="greenhouse"\} \d+/);
    assert.match(metrics, /leadbase_sources_oldest_success_age_seconds \d/);
    assert.match(metrics, /leadbase_sources\{status="active"\} 2/);
    const removed = await t.inject({ method: 'DELETE', url: `/admin/sources/${id}`, headers: ADMIN });
    assert.deepEqual(removed.json(), { id, removed: true });
    const gone = await t.inject({ method: 'GET', url: `/admin/sources/${id}`, headers: ADMIN });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().error, 'not_found');
  });
});

describe('leadbase sources (CLI)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-sources-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'silent' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a list with a summary of what it refused, and lists the sources as JSON', async () => {
    const file = join(dir, 'sources.csv');
    writeFileSync(
      file,
      'type,locator,company_name,every\ngreenhouse,https://boards.greenhouse.io/stripe,Stripe,6h\nlever,,Acme,\nashby,openai,,1d\ngreenhouse,STRIPE,,\n',
    );
    const imported = await runLeadbase(['sources', 'import', file, '--json'], env);
    assert.equal(imported.status, 0, imported.stderr);
    assert.deepEqual(JSON.parse(imported.stdout), {
      read: 4,
      added: 2,
      updated: 0,
      existing: 1,
      refused: [{ line: 3, reason: 'a lever source needs a locator (the board token)' }],
    });
    const listed = await runLeadbase(['sources', 'list', '--json'], env);
    const sources = JSON.parse(listed.stdout) as { type: string; locator: string; every: string }[];
    assert.deepEqual(
      sources.map((s) => `${s.type} ${s.locator} ${s.every}`),
      ['greenhouse stripe 6h', 'ashby openai 1d'],
    );
    const unreadable = join(dir, 'bad.csv');
    writeFileSync(unreadable, 'name,url\nx,y\n');
    const refused = await runLeadbase(['sources', 'import', unreadable], env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /header must name the fields.*not fields: name, url/);
  });

  it('discover says what it could not tell about a site it cannot reach, registers nothing, and fails with the real cause', async () => {
    const found = await runLeadbase(['discover', 'nowhere.invalid', '--json', '--max-pages', '3'], env);
    assert.equal(found.status, 1, 'reading nothing is a failure');
    const line = JSON.parse(found.stdout.trim());
    assert.equal(line.site, 'nowhere.invalid');
    assert.deepEqual(line.boards, []);
    assert.deepEqual(line.registered, []);
    assert.ok(
      line.notes.some((n: string) => /no page of the site could be read/.test(n)),
      line.notes.join('\n'),
    );
    assert.ok(
      line.notes.every((n: string) => !/robots\.txt does not allow/.test(n)),
      'a name that does not resolve is not a robots.txt refusal',
    );
    assert.match(line.notes[0], /could not resolve host nowhere\.invalid/);
    assert.match(found.stderr, /no page could be read on the site: nowhere\.invalid: .*could not resolve host nowhere\.invalid/);
    const none = await runLeadbase(['discover'], env);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /give one or more domains, or --from-companies/);
  });

  it('runs a source now and fails clearly when its host does not answer (a base URL the operator names may be loopback: a mirror)', async () => {
    const added = await runLeadbase(['sources', 'add', 'lever', 'localco', '--base-url', 'http://127.0.0.1:9', '--json'], env);
    const id = JSON.parse(added.stdout).id as number;
    assert.equal(JSON.parse(added.stdout).base_url_by_operator, true);
    const run = await runLeadbase(['sources', 'run', String(id)], env);
    assert.equal(run.status, 1);
    assert.match(run.stdout, new RegExp(`source ${id} failed: http://127\\.0\\.0\\.1:9: 127\\.0\\.0\\.1 refused the connection`));
    const shown = await runLeadbase(['sources', 'show', String(id), '--json'], env);
    const view = JSON.parse(shown.stdout);
    assert.equal(view.consecutive_failures, 1);
    assert.equal(view.runs[0].outcome, 'failed');
    const missing = await runLeadbase(['sources', 'run', '999'], env);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no source with id 999/);
  });
});
