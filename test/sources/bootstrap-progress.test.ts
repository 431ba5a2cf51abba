// Bootstrap's progress inside a data set's run, against the local stand-ins of the SEC, Companies
// House and the Wikidata Query Service: each kind reports the part it reads, its download's bytes of
// the declared size, the rows read so far and the parts done of the run's, and bootstrap turns that
// into rows/s and an ETA on the progress line.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { runBootstrap, type BootstrapDeps, type StepProgress } from '../../src/sources/bootstrap.ts';
import { bootstrapDeps, describeStep } from '../../src/cli/bootstrap.ts';
import { formDQuarters } from '../../src/sources/kinds/formd/index.ts';
import { dbTargets } from '../support/db.ts';
import { startMirror as startSec, type SecMirror } from '../support/upstreams/sec.ts';
import {
  currentReleaseDate,
  sampleRelease,
  startCompaniesHouseServer,
  type CompaniesHouseServer,
} from '../support/upstreams/companies-house.ts';
import { startWikidataUpstream, type WikidataUpstream } from '../support/upstreams/wikidata.ts';

for (const target of dbTargets) {
  describe(`bootstrap's progress inside a data set (${target.name})`, { skip: target.skip, timeout: 300_000 }, () => {
    let services: Services;
    let store: CrawlServices;
    let deps: BootstrapDeps;
    let sec: SecMirror;
    let companiesHouse: CompaniesHouseServer;
    let wikidata: WikidataUpstream;

    before(async () => {
      sec = await startSec({ latencyMs: 40, perSecond: 1000 });
      companiesHouse = await startCompaniesHouseServer({ latencyMs: 50 });
      wikidata = await startWikidataUpstream({ latencyMs: 50 });
      ({ services } = store = await openCrawlServices(target, {
        env: { CRAWL_HOST_INTERVAL_MS: '0', CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)' },
      }));
      deps = bootstrapDeps(services);
    });
    after(async () => {
      await store?.close();
      await Promise.all([sec?.close(), companiesHouse?.close(), wikidata?.close()]);
    });

    /** Runs one data set through bootstrap; every progress snapshot of its step, and the report's. */
    const watch = async (only: string, mirrors: Record<string, string>) => {
      const seen: StepProgress[] = [];
      const report = await runBootstrap(deps, {
        only: [only],
        mirrors,
        onProgress: (steps) => seen.push(...steps.filter((s) => s.name === only)),
      });
      const step = report.steps.find((s) => s.name === only)!;
      assert.equal(step.state, 'done', step.lastError ?? '');
      return { seen, running: seen.filter((s) => s.state === 'running'), step };
    };

    it('Form D: the quarter waited for with its bytes of the declared size, quarters done of the run, rows/s and an ETA', async () => {
      const quarters = formDQuarters(Date.now()).length;
      const { running, step } = await watch('formd', { sec: sec.url });
      const downloading = running.filter((s) => /^\d{4}q[1-4]$/.test(s.part ?? '') && s.totalBytes);
      assert.ok(downloading.length > 0, 'a quarter is seen downloading with its Content-Length');
      assert.ok(running.some((s) => s.runParts?.total === quarters && s.runParts.done > 0 && s.runParts.done < quarters));
      const midway = running.find((s) => s.etaSeconds !== null && s.etaSeconds > 0 && s.rowsPerSecond !== null);
      assert.ok(midway, `an ETA and a rate while the quarters are read: ${JSON.stringify(running.at(-1))}`);
      assert.match(describeStep(midway, midway.startedAt! + 2000), /rows\/s, \d+\/\d+ parts this run, .*ETA \d/);
      // Done: the rows read (the recorded quarter's filings), every quarter, no ETA left.
      assert.equal(step.runParts?.done, quarters);
      assert.equal(step.etaSeconds, null);
      assert.ok(step.rows >= 4, `${step.rows} rows`);
      assert.ok(step.rowsPerSecond !== null && step.rowsPerSecond > 0);
    });

    it("Companies House: each part's download of its Content-Length, and the rows read", async () => {
      const date = currentReleaseDate();
      const sizes = sampleRelease(date).parts.map((p) => ('body' in p ? p.body.length : 0));
      const { running, step } = await watch('companies_house', { 'companies-house': companiesHouse.url });
      for (const [i, bytes] of sizes.entries()) {
        const name = `BasicCompanyData-${date}-part${i + 1}_${sizes.length}.zip`;
        assert.ok(
          running.some((s) => s.part === name && s.totalBytes === bytes),
          `${name} seen with its ${bytes} bytes: ${JSON.stringify(running.map((s) => [s.part, s.bytes, s.totalBytes]))}`,
        );
      }
      assert.ok(running.some((s) => s.runParts?.total === sizes.length && s.runParts.done === 1 && s.etaSeconds !== null));
      assert.deepEqual(step.runParts, { done: sizes.length, total: sizes.length });
      assert.ok(step.rows > 0 && step.rowsPerSecond! > 0, JSON.stringify(step));
    });

    it('Wikidata: the range of items read, its rows as each page of items arrives, ranges done of the run', async () => {
      const { running, step } = await watch('wikidata', { wikidata: wikidata.url });
      assert.ok(running.some((s) => /^\d{4}-\d{2}:Q\d+-Q\d+$/.test(s.part ?? '')));
      assert.ok(step.runParts && step.runParts.total > 0 && step.runParts.done === step.runParts.total, JSON.stringify(step));
      assert.ok(step.rows > 0, `${step.rows} rows`);
    });
  });
}
