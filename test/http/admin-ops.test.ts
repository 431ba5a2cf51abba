// The console's bootstrap and discovery routes: the bootstrap runs against the local fake upstreams
// (test/support/upstreams, named as the operator names mirrors: BOOTSTRAP_MIRRORS), one at a time,
// with its progress and at its end what the service answers; discovery reads a local fake site and
// the board it finds is registered and run from the mirror. A customer's session reaches neither.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { bootstrapConfig, startEveryMirror, type Mirror } from '../support/bootstrap.ts';
import { BOARDS_CSV, startMirror as startBoardsMirror } from '../support/upstreams/boards.ts';
import { startCareersSite, startCrawlWorld, type CrawlWorld } from '../sources/crawl-world.ts';

const ADMIN_TOKEN = 'ops-test-admin-token-0123456789';

interface Session {
  cookie: string;
  csrf: string;
}

interface RunView {
  state: string;
  steps: { name: string; state: string; rows: number; done: number; last_error: string | null }[];
  failures: unknown[];
  answers: { endpoint: string; body: unknown; reason: string | null; curl: string | null }[] | null;
}

for (const target of dbTargets) {
  describe(`console bootstrap and discovery routes (${target.name})`, { skip: target.skip, timeout: 600_000 }, () => {
    let t: TestApp;
    let mirrors: Mirror[];
    let site: CrawlWorld;
    let closed: CrawlWorld;
    let operator: Session;
    let customer: Session;

    const signIn = async (token: string): Promise<Session> => {
      const res = await t.inject({
        method: 'POST',
        url: '/admin/session',
        headers: { 'content-type': 'application/json' },
        payload: { token },
      });
      assert.equal(res.statusCode, 200, res.body);
      return { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.json().csrf_token };
    };
    const call = (s: Session, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse> =>
      t.inject({
        method,
        url,
        headers: {
          cookie: s.cookie,
          ...(method !== 'GET' ? { 'x-csrf-token': s.csrf } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });

    before(async () => {
      mirrors = await startEveryMirror();
      // The company's site: its careers page links its Greenhouse board, which the mirror holds.
      site = await startCareersSite('https://boards.greenhouse.io/stripe');
      // A site whose robots.txt allows nothing.
      closed = await startCrawlWorld();
      closed.route('/robots.txt', (_q, r) => void r.end('User-agent: *\nDisallow: /\n'));
      const config = bootstrapConfig(ADMIN_TOKEN, mirrors);
      t = await startTestApp(target, { deps: { config, crawlAllowPrivateHosts: [site.host, closed.host] } });
      operator = await signIn(ADMIN_TOKEN);
      customer = await signIn(t.key);
    });
    after(async () => {
      await t?.close();
      await Promise.all([...(mirrors ?? []).map((m) => m.close()), site?.close(), closed?.close()]);
    });

    it("refuses a customer's session on the bootstrap and on discovery", async () => {
      for (const [method, url, body] of [
        ['GET', '/admin/bootstrap', undefined],
        ['POST', '/admin/bootstrap', {}],
        ['DELETE', '/admin/bootstrap', undefined],
        ['POST', '/admin/discovery', { domain: 'example.com' }],
      ] as const) {
        const res = await call(customer, method, url, body);
        assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().error, 'forbidden');
      }
      assert.equal(t.services.sources.bootstrap.current(), null, 'nothing was started');
    });

    it('refuses unknown steps and limits out of range, in words', async () => {
      let res = await call(operator, 'POST', '/admin/bootstrap', { only: ['nonsense'] });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /no step named "nonsense".*steps: .*boards/);
      res = await call(operator, 'POST', '/admin/bootstrap', { limit: 0 });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /limit must be a whole number from 1/);
      res = await call(operator, 'DELETE', '/admin/bootstrap');
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().error, 'bootstrap_not_running');
    });

    it('runs the bootstrap from the fake upstreams: progress, one at a time, then what the service answers', async () => {
      const before = await call(operator, 'GET', '/admin/bootstrap');
      assert.equal(before.statusCode, 200);
      assert.equal(before.json().run, null);
      assert.deepEqual([...before.json().mirrors].sort(), mirrors.map((m) => m.name).sort());

      const started = await call(operator, 'POST', '/admin/bootstrap', { limit: 2, discover_limit: 0 });
      assert.equal(started.statusCode, 202, started.body);
      assert.equal(started.json().run.state, 'running');
      const second = await call(operator, 'POST', '/admin/bootstrap', {});
      assert.equal(second.statusCode, 409);
      assert.equal(second.json().error, 'bootstrap_running');
      assert.match(second.json().message, /A bootstrap is running already/);

      let run: RunView;
      const deadline = Date.now() + 480_000;
      for (;;) {
        run = (await call(operator, 'GET', '/admin/bootstrap')).json().run as RunView;
        if (run.state !== 'running') break;
        assert.ok(Date.now() < deadline, `still running: ${JSON.stringify(run.steps)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(run.state, 'done', JSON.stringify(run));
      for (const step of run.steps) assert.equal(step.state, 'done', `${step.name}: ${step.last_error}`);
      assert.deepEqual(run.failures, []);
      assert.ok(run.steps.find((s) => s.name === 'boards')!.rows > 0, 'the boards brought listings');
      const answered = run.answers!.filter((a) => a.body);
      assert.ok(answered.some((a) => a.endpoint === '/jobs-finder'));
      for (const a of answered) assert.match(a.curl!, new RegExp(`^curl -s -X POST http://\\S+${a.endpoint} `));
      for (const a of run.answers!.filter((x) => !x.body)) assert.ok(a.reason && a.reason.length > 10, a.endpoint);

      // The start and how it ended are in the audit log.
      const audit = (await call(operator, 'GET', '/admin/audit')).json().entries as { action: string; detail: Record<string, unknown> }[];
      assert.ok(audit.some((e) => e.action === 'POST /admin/bootstrap' && e.detail.limit === 2));
      assert.ok(audit.some((e) => e.action === 'bootstrap done'));
      // What it registered is on its schedule, each source once.
      const sources = (await call(operator, 'GET', '/admin/sources')).json().sources as { type: string; locator: string }[];
      assert.equal(new Set(sources.map((s) => `${s.type}:${s.locator}`)).size, sources.length);
      assert.ok(sources.some((s) => s.type === 'greenhouse'));
    });

    it('stops a running bootstrap between parts: interrupted, in the audit log, and a new one may start', async () => {
      // Its own service, whose boards' mirror answers slowly, so the run is still going when stopped.
      const slow = await startBoardsMirror({ delayMs: 3000 });
      const other = await startTestApp(target, {
        deps: {
          config: loadConfig({
            CRAWL_ENABLED: '0',
            ADMIN_TOKEN,
            CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)',
            BOOTSTRAP_MIRRORS: `greenhouse=${slow.url}`,
            BOOTSTRAP_BOARDS: BOARDS_CSV,
          }),
        },
      });
      const saved = t;
      t = other;
      try {
        const session = await signIn(ADMIN_TOKEN);
        const started = await call(session, 'POST', '/admin/bootstrap', { only: ['boards'] });
        assert.equal(started.statusCode, 202, started.body);
        const stopped = await call(session, 'DELETE', '/admin/bootstrap');
        assert.equal(stopped.statusCode, 200, stopped.body);
        let run: RunView;
        const deadline = Date.now() + 120_000;
        do {
          await new Promise((resolve) => setTimeout(resolve, 200));
          run = (await call(session, 'GET', '/admin/bootstrap')).json().run as RunView;
          assert.ok(Date.now() < deadline, 'the run stops');
        } while (run.state === 'running');
        assert.equal(run.state, 'interrupted');
        assert.ok(run.answers, 'what the service answers is said even after a stop');
        const audit = (await call(session, 'GET', '/admin/audit')).json().entries as { action: string }[];
        assert.ok(audit.some((e) => e.action === 'DELETE /admin/bootstrap'));
        assert.ok(audit.some((e) => e.action === 'bootstrap interrupted'));
        const again = await call(session, 'POST', '/admin/bootstrap', { only: ['boards'] });
        assert.equal(again.statusCode, 202, 'a stopped run does not hold the next one');
      } finally {
        t = saved;
        await other.close();
        await slow.close();
      }
    });

    it('discovers the board on a site, and the board it offers is registered and read from the mirror', async () => {
      const res = await call(operator, 'POST', '/admin/discovery', { domain: site.origin });
      assert.equal(res.statusCode, 200, res.body);
      const found = res.json();
      assert.equal(found.outcome, 'found');
      assert.match(found.message, /Found 1 job board/);
      assert.deepEqual(
        found.boards.map((b: { type: string; board: string }) => `${b.type}:${b.board}`),
        ['greenhouse:stripe'],
      );
      const board = found.boards[0];
      // The bootstrap registered stripe from the boards list already: discovery says so.
      const existing = board.registered_as as number | null;
      const greenhouse = mirrors.find((m) => m.name === 'greenhouse')!;
      assert.equal(board.source.base_url, greenhouse.url.replace(/\/+$/, ''));
      assert.equal(board.source.discovered_from, `${site.origin}/careers`);
      const added = await call(operator, 'POST', '/admin/sources', board.source);
      assert.ok([200, 201].includes(added.statusCode), added.body);
      if (existing) assert.equal(added.json().id, existing);
      const ran = await call(operator, 'POST', `/admin/sources/${added.json().id}/run`);
      assert.equal(ran.statusCode, 200, ran.body);
      assert.equal(ran.json().error, null);
      assert.ok(ran.json().counts.read > 0, 'the board is read from the mirror');
      const again = (await call(operator, 'POST', '/admin/discovery', { domain: site.origin })).json();
      assert.equal(again.boards[0].registered_as, added.json().id);
    });

    it('says in words why a site gave nothing: DNS, robots.txt, no board; refuses what is not a domain', async () => {
      let res = await call(operator, 'POST', '/admin/discovery', { domain: 'no-such-host.invalid' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().outcome, 'unreadable');
      assert.match(res.json().message, /No page of no-such-host\.invalid could be read: .*could not resolve host no-such-host\.invalid/);

      res = await call(operator, 'POST', '/admin/discovery', { domain: closed.origin });
      assert.equal(res.json().outcome, 'unreadable');
      assert.match(res.json().message, /robots\.txt does not allow it/);

      const bare = await startCrawlWorld();
      try {
        bare.route('/', (_q, r) => {
          r.setHeader('content-type', 'text/html');
          r.end('<html><body><p>We make things.</p></body></html>');
        });
        // Not on the test's allowance: the guarded client refuses the loopback address.
        res = await call(operator, 'POST', '/admin/discovery', { domain: bare.origin });
        assert.equal(res.json().outcome, 'unreadable');
        assert.match(res.json().message, /not a public address/);
      } finally {
        await bare.close();
      }
      site.route('/', (_q, r) => {
        r.setHeader('content-type', 'text/html');
        r.end('<html><body><p>We make things.</p></body></html>');
      });
      site.route('/careers', (_q, r) => {
        r.statusCode = 404;
        r.end();
      });
      res = await call(operator, 'POST', '/admin/discovery', { domain: site.origin });
      assert.equal(res.json().outcome, 'nothing_found');
      assert.match(res.json().message, /Nothing found on the 1 page .*no supported job-board link/);

      for (const domain of [undefined, '', 'not a domain', 'localhostish']) {
        res = await call(operator, 'POST', '/admin/discovery', { domain });
        assert.equal(res.statusCode, 400, `${domain}: ${res.body}`);
        assert.equal(res.json().error, 'invalid_request');
      }
    });
  });
}
