// The Wikidata companies source against a simulated Wikidata Query Service: the recorded answers'
// shapes, companies at scale made from them (QIDs as sparse as real ones), each answer after the
// service's latency, and its limit of one query at a time (a second one is answered 429). The bound
// is what that limit sets for any client: the queries the run needs, one after another, each taking
// the latency. Measured on a fresh SQLite database.
//   npx tsx bench/bootstrap/wikidata.ts [--quick]
import { scaledRows, startWikidataUpstream } from '../../test/support/upstreams/wikidata.ts';
import { measurement, openSourceBench, timed, type SourceMeasurement } from '../support/source-bench.ts';

/** A detail query of 100 items answers in about this long on WDQS (listings take longer; counted the same here). */
const LATENCY_MS = 250;

export async function measure(options: { quick: boolean }): Promise<SourceMeasurement> {
  const companies = options.quick ? 4000 : 20_000;
  const upstream = await startWikidataUpstream({ rows: scaledRows(companies), latencyMs: LATENCY_MS });
  // The service publishes no interval between queries, only one at a time (the host's turn).
  const bench = await openSourceBench({ name: 'wikidata', allowHosts: [new URL(upstream.url).host], env: { CRAWL_HOST_INTERVAL_MS: '0' } });
  const { services } = bench;
  try {
    const { source } = await services.sources.registry.add({ type: 'wikidata', base_url: upstream.url });
    const { result, seconds } = await timed(async () => (await services.sources.scheduler.runNow(Number(source.id)))!);
    if (result.outcome === 'failed') throw new Error(`the run failed: ${result.error}`);
    const queries = upstream.log.length;
    const rejected = upstream.log.filter((l) => l.status === 429).length;
    const boundSeconds = ((queries - rejected) * LATENCY_MS) / 1000;
    return measurement(
      'wikidata',
      result.counts.read,
      seconds,
      boundSeconds,
      `${companies} companies, ${queries - rejected} queries (${LATENCY_MS} ms each, one at a time), ` +
        `peak ${upstream.peakConcurrent} at once, ${rejected} answered 429; stored ${result.counts.inserted}, refused ${result.counts.refused}`,
    );
  } finally {
    await bench.close();
    await upstream.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measure({ quick: process.argv.includes('--quick') }));
