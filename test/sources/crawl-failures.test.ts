// Failed runs, as `serve` meets them offline: a board whose host cannot be reached backs off
// (exponential, capped, jittered) instead of being due again within seconds, and failures reach the
// log as one summary a minute at most (counts by kind and type, a few examples), not a line each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlFailureSummary, failureKind, type CrawlFailure } from '../../src/sources/failures.ts';
import { FetchError } from '../../src/net/http-client.ts';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { dbTargets } from '../support/db.ts';
import { closedPort } from '../support/bootstrap.ts';

const failure = (i: number, kind: CrawlFailure['kind'] = 'dns'): CrawlFailure => ({
  source: i,
  type: i % 2 ? 'greenhouse' : 'lever',
  locator: `board-${i}`,
  kind,
  error: `could not resolve host board-${i}.example (no such name in DNS)`,
});

describe('crawl failures in the log', () => {
  it('one summary a minute at most: counts by kind and type, a few examples', () => {
    let clock = 1_000_000;
    const lines: { details: Record<string, unknown>; message: string }[] = [];
    const summary = new CrawlFailureSummary({
      logger: { warn: (details, message) => lines.push({ details: details as Record<string, unknown>, message }) },
      now: () => clock,
    });
    // The first failure after a quiet minute is logged at once.
    summary.add(failure(1));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].details.failures, 1);
    // A thousand failures over the next 59 seconds: nothing more yet.
    for (let i = 2; i <= 1001; i++) {
      clock += 59;
      summary.add(failure(i, i % 10 === 0 ? 'http' : 'dns'));
    }
    assert.equal(lines.length, 1);
    clock += 1_000;
    summary.flushIfDue();
    assert.equal(lines.length, 2);
    const second = lines[1];
    assert.equal(second.details.failures, 1000);
    assert.deepEqual(second.details.by_kind, { dns: 900, http: 100 });
    assert.deepEqual(second.details.by_type, { greenhouse: 500, lever: 500 });
    assert.equal((second.details.examples as unknown[]).length, 3);
    assert.match(second.message, /1000 source runs failed/);
    // Nothing pending: nothing logged; a stop logs what is pending at once.
    clock += 120_000;
    summary.flushIfDue();
    assert.equal(lines.length, 2);
    summary.add(failure(2000));
    summary.add(failure(2001));
    assert.equal(lines.length, 3, 'the first after a quiet minute, at once');
    summary.flush();
    assert.equal(lines.length, 4);
    assert.equal(lines[3].details.failures, 1);
  });

  it('tells a host never reached from one that answered', () => {
    assert.equal(failureKind(new FetchError('x: could not resolve host x', 'network', 'ENOTFOUND')), 'dns');
    assert.equal(failureKind(new FetchError('x: x refused the connection', 'network', 'ECONNREFUSED')), 'connect');
    assert.equal(failureKind(new Error('wrapped', { cause: new FetchError('x', 'network', 'EAI_AGAIN') })), 'dns');
    assert.equal(failureKind(new FetchError('x: x closed the connection', 'network', 'ECONNRESET')), 'other');
    assert.equal(failureKind(new FetchError('x: no complete answer', 'timeout')), 'timeout');
    assert.equal(failureKind(Object.assign(new Error('GET x answered HTTP 404'), { status: 404 })), 'http');
    assert.equal(failureKind('interrupted'), 'other');
  });
});

for (const target of dbTargets) {
  describe(`a board that cannot be reached (${target.name})`, { skip: target.skip }, () => {
    let services: Services;
    let store: CrawlServices;
    let offline: string;
    const lines: { msg: string; failures?: number; by_kind?: Record<string, number> }[] = [];

    before(async () => {
      offline = `http://127.0.0.1:${await closedPort()}`;
      const { default: pino } = await import('pino');
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      ({ services } = store = await openCrawlServices(target, {
        env: {
          CRAWL_HOST_INTERVAL_MS: '0',
          CRAWL_RETRY_MS: '60000',
          CRAWL_RETRY_CAP_MS: '600000',
          CRAWL_PAUSE_AFTER: '20',
          CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)',
        },
        logger,
      }));
    });
    after(async () => {
      await store?.close();
    });

    it('backs off, doubling per failure up to the cap, with jitter; failures are summed up in the log', async () => {
      const { registry, scheduler } = services.sources;
      const { source } = await registry.add({ type: 'greenhouse', locator: 'gone', base_url: offline });
      const delays: number[] = [];
      for (let failures = 1; failures <= 6; failures++) {
        const before = Date.now();
        const result = (await scheduler.runNow(Number(source.id)))!;
        const after = Date.now();
        assert.equal(result.outcome, 'failed');
        assert.equal(result.failure, 'connect', result.error ?? '');
        const row = (await registry.get(Number(source.id)))!;
        assert.equal(row.consecutive_failures, failures);
        const base = Math.min(600_000, 60_000 * 2 ** (failures - 1));
        const next = Number(row.next_run_at);
        assert.ok(next - before >= base * 0.75 - 100 && next - after <= base * 1.25 + 100, `failure ${failures}: ${next - before} ms`);
        delays.push(next - after);
        // Not due: the scheduler's tick leaves it alone.
        assert.equal(await scheduler.tick(), 0);
      }
      assert.ok(delays[5] >= 600_000 * 0.75 - 100 && delays[5] <= 600_000 * 1.25 + 100, `capped: ${delays[5]}`);
      // Six failures within the minute: one line at the first, the rest pending until the minute ends.
      const summaries = lines.filter((l) => l.msg.startsWith('crawl failures'));
      assert.equal(summaries.length, 1, JSON.stringify(summaries));
      assert.deepEqual(summaries[0].by_kind, { connect: 1 });
      assert.equal(lines.filter((l) => l.msg === 'source run failed').length, 0, 'no line per failure at info');
    });
  });
}
