// Bootstrap's service on data sets, with a test kind reading pages of companies from a local
// upstream named as a mirror: a sample stops between parts and is due again (not a failure); the
// next run resumes from the parts stored (and the ones it stored are recorded on the source); the
// mirror is the source's trusted base_url.
import '../support/sample-kind.ts';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { BootstrapInputError, parseMirrors, runBootstrap, type BootstrapDeps } from '../../src/sources/bootstrap.ts';
import { endpointExamples } from '../../src/sources/answers.ts';
import { bootstrapDeps } from '../../src/cli/bootstrap.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { SAMPLE_PAGES, SAMPLE_TYPE } from '../support/sample-kind.ts';

for (const target of dbTargets) {
  describe(`bootstrap over data sets (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let services: Services;
    let store: CrawlServices;
    let server: Server;
    let mirror: string;
    const asked: string[] = [];
    let deps: BootstrapDeps;

    before(async () => {
      server = createServer((request, response) => {
        asked.push(request.url!);
        const page = Number(/^\/pages\/(\d+)$/.exec(request.url!)?.[1]);
        // Slow enough that a sample limit is seen between parts.
        setTimeout(() => {
          response.writeHead(page ? 200 : 404, { 'content-type': 'application/json' });
          response.end(JSON.stringify(page ? [1, 2].map((i) => ({ name: `Sample ${page}-${i}`, domain: `sample${page}-${i}.test` })) : []));
        }, 500);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      ({ database, services } = store = await openCrawlServices(target, {
        env: { CRAWL_HOST_INTERVAL_MS: '0', CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)' },
      }));
      deps = bootstrapDeps(services);
    });
    after(async () => {
      await store?.close();
      server.close();
    });

    it('names its upstreams and refuses mirrors it does not know', () => {
      assert.deepEqual(parseMirrors([`sample=${mirror}/`]), { sample: mirror });
      assert.throws(
        () => parseMirrors(['nowhere=http://x.test']),
        (e: Error) => e instanceof BootstrapInputError && /no upstream named "nowhere"/.test(e.message),
      );
      assert.throws(() => parseMirrors(['sample=ftp://x.test']), /an http or https URL/);
      assert.throws(() => parseMirrors(['sample']), /NAME=URL/);
    });

    it('a sample (--limit) stops between parts, is due again and not failed; the next run resumes from the stored parts', async () => {
      const sample = await runBootstrap(deps, { only: [SAMPLE_TYPE], limit: 2, mirrors: { sample: mirror } });
      const step = sample.steps.find((s) => s.name === SAMPLE_TYPE)!;
      assert.equal(sample.interrupted, false);
      assert.ok(step.done >= 2 && step.done < SAMPLE_PAGES, `${step.done} parts in the sample`);
      assert.match(sample.sources[0].outcome, /stopped \(sample limit\)/);
      const [source] = await services.sources.registry.list({ type: SAMPLE_TYPE });
      assert.equal(source.base_url, mirror);
      assert.equal(Number(source.operator_base_url), 1);
      assert.equal(Number(source.consecutive_failures), 0);
      assert.ok(Number(source.next_run_at) <= Date.now(), 'due again: the schedule fetches the rest');
      // The parts it stored are the source's last success and rows, as a scheduled run records them (leadbase status).
      assert.ok(source.last_success_at, 'a last success');
      assert.equal(JSON.parse(source.last_counts!).read, step.rows);
      const [run] = await services.sources.registry.history(Number(source.id), 1);
      assert.deepEqual([run.outcome, run.read], ['changed', step.rows]);
      const firstPages = asked.length;

      const full = await runBootstrap(deps, { only: [SAMPLE_TYPE], mirrors: { sample: mirror } });
      const fullStep = full.steps.find((s) => s.name === SAMPLE_TYPE)!;
      assert.equal(fullStep.state, 'done', fullStep.lastError ?? '');
      assert.equal(fullStep.done, SAMPLE_PAGES);
      assert.equal(asked.length - firstPages, SAMPLE_PAGES - step.done, 'only the parts not stored are fetched');
      assert.equal((await services.sources.registry.list({ type: SAMPLE_TYPE })).length, 1, 'registered once');
      const after = (await services.sources.registry.list({ type: SAMPLE_TYPE }))[0];
      assert.ok(Number(after.next_run_at) > Date.now(), 'on its schedule');

      // Nothing more to fetch until it is due.
      const again = await runBootstrap(deps, { only: [SAMPLE_TYPE], mirrors: { sample: mirror } });
      assert.deepEqual(again.sources, []);

      const examples = await endpointExamples({
        db: database.db,
        companies: services.companies,
        jobs: services.jobs,
        people: services.people,
      });
      const search = examples.find((e) => e.endpoint === '/company-search')!;
      assert.match(String(search.body?.company_domain), /^sample\d-\d\.test$/);
      const mobile = examples.find((e) => e.endpoint === '/mobile-finder')!;
      assert.equal(mobile.body, null);
      assert.match(mobile.reason!, /leadbase import people/);
    });

    it('an interrupt stops the runs and is reported; unknown steps are refused', async () => {
      const controller = new AbortController();
      controller.abort('interrupted');
      const report = await runBootstrap(deps, { only: [SAMPLE_TYPE], signal: controller.signal });
      assert.equal(report.interrupted, true);
      await assert.rejects(runBootstrap(deps, { only: ['nothing'] }), /no step named "nothing"/);
    });
  });
}
