// Wikidata companies through the Wikidata Query Service (docs/data/wikidata.md): one query at a
// time (the host's politeness turn), each small enough for the service's 60 s limit. A run lists
// the items of each company class that have an official website, cuts them into fixed ranges of
// item ids, and reads each range as detail queries of at most PAGE_ITEMS items; a range is written
// down as done once its companies are stored, so an interrupted run resumes with the next range
// and the month's later runs skip what they hold.
import { runCompanyImport, type SourceRecord } from '../../../ingest/companies/runner.ts';
import { readSparqlResults } from '../../../ingest/companies/sparql-results.ts';
import { COMPANY_CLASSES, companiesOf, detailQuery, listedQids, listingQuery } from '../../../ingest/companies/wikidata.ts';
import type { RunCounts } from '../../tables.ts';
import { SourceInputError } from '../../source-input-error.ts';
import type { DataSetKind, KindRunContext } from '../../kind.ts';
import { getUnlessBusy, mirrored } from '../upstream.ts';

const ENDPOINT = 'https://query.wikidata.org/sparql';
const ACCEPT = 'application/sparql-results+json';
/** The query service stops a query after 60 s; its answer may take a few seconds more to arrive. */
const QUERY_TIMEOUT_MS = 75_000;

/** Items per detail query: its address stays a few KB and its answer a few hundred rows. */
const PAGE_ITEMS = 100;
/** Width of a range of item ids (a stored part): small enough that an interruption costs little. */
const RANGE_WIDTH = 100_000;

/** The address of a query on the endpoint, honouring a mirror's origin. */
function queryUrl(context: KindRunContext, query: string): string {
  const url = new URL(context.source.locator);
  url.search = new URLSearchParams({ query, format: 'json' }).toString();
  return mirrored(url.toString(), context.source.base_url);
}

/** A listing of a large class (a few hundred thousand items) is tens of MB of JSON. */
const LISTING_MAX_BYTES = 256 * 1024 * 1024;

/** One query's answer; a 429 or 503 is tried again (its Retry-After is waited by the host's turn). */
async function ask(context: KindRunContext, query: string, maxBytes?: number): Promise<string> {
  const body = await getUnlessBusy(context.fetch, queryUrl(context, query), ACCEPT, {
    maxBytes,
    timeoutMs: QUERY_TIMEOUT_MS,
    signal: context.signal,
  });
  return body.toString('utf8');
}

const qidNumber = (qid: string) => Number(qid.slice(1));

/** The month a run belongs to: each month's refresh reads every range again. */
const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

async function read(context: KindRunContext): Promise<RunCounts> {
  const listed = new Set<string>();
  for (const cls of COMPANY_CLASSES) {
    const where = `listing of ${cls}`;
    for (const qid of listedQids(readSparqlResults(await ask(context, listingQuery(cls), LISTING_MAX_BYTES), where), where))
      listed.add(qid);
  }
  // Wikidata holds hundreds of thousands of companies with a website: none at all is a broken answer, not an empty Wikidata.
  if (!listed.size)
    throw new Error(`the listings of ${COMPANY_CLASSES.length} company classes named no item: refusing to read that as no companies`);
  const ranges = new Map<number, string[]>();
  for (const qid of [...listed].sort((a, b) => qidNumber(a) - qidNumber(b))) {
    const range = Math.floor(qidNumber(qid) / RANGE_WIDTH);
    const list = ranges.get(range);
    if (list) list.push(qid);
    else ranges.set(range, [qid]);
  }
  const month = monthOf(context.now);
  const done = await context.progress.doneParts();
  const counts: RunCounts = { read: 0, inserted: 0, updated: 0, expired: 0, refused: 0 };
  const partOf = (range: number) => `${month}:Q${range * RANGE_WIDTH}-Q${(range + 1) * RANGE_WIDTH - 1}`;
  const todo = [...ranges.keys()].filter((range) => !done.has(partOf(range)));
  let finished = 0;
  context.report({ rows: 0, parts: { done: 0, total: todo.length } });
  for (const range of todo) {
    const qids = ranges.get(range)!;
    const part = partOf(range);
    context.signal?.throwIfAborted();
    context.report({ part, bytes: 0, totalBytes: null });
    async function* records(): AsyncIterable<SourceRecord> {
      for (let i = 0; i < qids.length; i += PAGE_ITEMS) {
        const page = qids.slice(i, i + PAGE_ITEMS);
        const where = `${part} items ${page[0]}…${page.at(-1)}`;
        yield* companiesOf(readSparqlResults(await ask(context, detailQuery(page)), where), page, where, i);
        context.report({ rows: counts.read + i + page.length });
      }
    }
    const summary = await runCompanyImport({ service: context.companies, source: 'wikidata', records: records(), seenAt: context.now });
    const partCounts = {
      read: summary.read,
      inserted: summary.inserted,
      updated: summary.updated,
      expired: 0,
      refused: summary.rejectedTotal,
    };
    await context.progress.markDone(part, { ...partCounts, refusedReasons: summary.rejected.slice(0, 20) });
    for (const key of ['read', 'inserted', 'updated', 'refused'] as const) counts[key] += partCounts[key];
    context.report({ rows: counts.read, parts: { done: ++finished, total: todo.length } });
  }
  return counts;
}

export const WIKIDATA_KIND: DataSetKind = {
  type: 'wikidata',
  family: 'data-set',
  defaultIntervalMs: 30 * 24 * 3600_000,
  mirrorName: 'wikidata',
  defaultLocator: ENDPOINT,
  normalizeLocator(locator) {
    let url: URL;
    try {
      url = new URL(locator);
    } catch {
      throw new SourceInputError(`a wikidata source's locator is its SPARQL endpoint (${ENDPOINT}), not ${JSON.stringify(locator)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SourceInputError('a SPARQL endpoint is an http(s) address');
    url.search = '';
    url.hash = '';
    return { locator: url.toString(), key: url.toString() };
  },
  read,
};
