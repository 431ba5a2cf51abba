// SEC Form D data sets (docs/data/formd.md): one zip per quarter since 2009Q1. The first run backfills
// every published quarter, oldest first, each quarter written down as stored whole once its rows are
// committed; later runs fetch the quarters published since. A quarter the SEC has not published yet
// answers 404: that is "not yet" and is tried again on the next run, never a failure.
import type { ImportSummary } from '../../../platform/import-summary.ts';
import { FetchError } from '../../../net/http-client.ts';
import { formDTablesOfZip, readFormD } from '../../../ingest/companies/formd.ts';
import { runCompanyImport } from '../../../ingest/companies/runner.ts';
import type { RunCounts } from '../../tables.ts';
import { SourceInputError } from '../../source-input-error.ts';
import type { DataSetKind, KindRunContext } from '../../kind.ts';
import { getUnlessBusy, mirrored } from '../upstream.ts';

/** SEC's quarterly Form D data sets; `{year}` and `{quarter}` name the quarter. */
const FORM_D_URL_PATTERN = 'https://www.sec.gov/files/structureddata/data/form-d-data-sets/{year}q{quarter}_d.zip';
/** The first quarter the SEC published (electronic Form D filing began in 2009). */
const FIRST_QUARTER = { year: 2009, quarter: 1 };
/**
 * How long after a quarter ends a 404 for it still means "not published yet". The SEC publishes a
 * quarter within weeks of its end; an older quarter that is missing is an error worth seeing.
 */
const NOT_YET_MS = 180 * 24 * 3_600_000;
/** The largest zip read (the biggest quarters are tens of MiB). */
const MAX_ZIP_BYTES = 512 * 1024 * 1024;

interface Quarter {
  year: number;
  quarter: number;
}

const indexOf = (q: Quarter) => q.year * 4 + q.quarter - 1;
const quarterAt = (index: number): Quarter => ({ year: Math.floor(index / 4), quarter: (index % 4) + 1 });
/** The part's name in the source's progress: 2024q1. */
const partOf = (q: Quarter) => `${q.year}q${q.quarter}`;
const endOf = (q: Quarter) => Date.UTC(q.year, q.quarter * 3, 1);

/** Every quarter from 2009Q1 to the last one that ended before `now`, oldest first. */
export function formDQuarters(now: number): Quarter[] {
  const date = new Date(now);
  const last = date.getUTCFullYear() * 4 + Math.floor(date.getUTCMonth() / 3) - 1;
  const quarters: Quarter[] = [];
  for (let i = indexOf(FIRST_QUARTER); i <= last; i++) quarters.push(quarterAt(i));
  return quarters;
}

/** The quarter's address: the locator's pattern filled in, its origin replaced by the source's base_url when set. */
function urlOf(locator: string, baseUrl: string | null, q: Quarter): string {
  return mirrored(locator.replace('{year}', String(q.year)).replace('{quarter}', String(q.quarter)), baseUrl);
}

const statusOf = (error: unknown) => (error as { status?: unknown }).status;

async function importQuarter(
  context: KindRunContext,
  zip: Buffer,
  url: string,
  amendedOfferings: Map<string, string>,
  onRows: (rows: number) => void,
) {
  const tables = formDTablesOfZip(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength), url);
  const formD = await readFormD(tables, { amendedOfferings });
  return runCompanyImport({
    service: context.companies,
    source: 'sec-formd',
    records: formD.records,
    seenAt: context.now,
    onBatch: (summary) => onRows(summary.read),
  });
}

const countsOf = (s: ImportSummary): RunCounts => ({
  read: s.read,
  inserted: s.inserted,
  updated: s.updated,
  expired: 0,
  refused: s.rejectedTotal,
});

/**
 * One run: every quarter not yet stored whole, oldest first, so that a company's newest filing is
 * the last one written (among facts of one source, the later import wins: docs/companies.md). The
 * next quarter is downloaded while the current one is stored.
 */
async function read(context: KindRunContext): Promise<RunCounts> {
  const done = await context.progress.doneParts();
  const quarters = formDQuarters(context.now).filter((q) => !done.has(partOf(q)));
  const total: RunCounts = { read: 0, inserted: 0, updated: 0, expired: 0, refused: 0 };
  const amendedOfferings = new Map<string, string>();
  // The quarter the run waits for: its download's bytes are what the run is doing meanwhile.
  let waitingFor: string | null = null;
  const download = (q: Quarter) => {
    const url = urlOf(context.source.locator, context.source.base_url, q);
    const onBytes = (bytes: number, totalBytes: number | null) => {
      if (waitingFor === partOf(q)) context.report({ part: partOf(q), bytes, totalBytes });
    };
    const get = () => getUnlessBusy(context.fetch, url, 'application/zip', { maxBytes: MAX_ZIP_BYTES, signal: context.signal, onBytes });
    // Once more after a dropped connection: a kept-alive connection the host closed while this run
    // was busy storing the previous quarter fails on its next use, and the zip is simply asked again.
    const zip = get()
      .catch((error: unknown) => {
        if (error instanceof FetchError && error.reason === 'network') return get();
        throw error;
      })
      .then(
        (body) => ({ url, body }),
        (error: unknown) => {
          if (statusOf(error) === 404 && context.now - endOf(q) < NOT_YET_MS) return { url, body: null };
          throw error;
        },
      );
    zip.catch(() => {}); // awaited in its turn; a failure meanwhile is not unhandled
    return zip;
  };
  let next = quarters.length ? download(quarters[0]) : null;
  context.report({ rows: 0, parts: { done: 0, total: quarters.length } });
  try {
    for (const [i, q] of quarters.entries()) {
      context.signal?.throwIfAborted();
      waitingFor = partOf(q);
      context.report({ part: partOf(q), bytes: 0, totalBytes: null });
      const { url, body } = await next!;
      waitingFor = null;
      next = i + 1 < quarters.length ? download(quarters[i + 1]) : null;
      if (body) {
        // Stored now: how far into the quarter is not known in bytes.
        context.report({ bytes: 0, totalBytes: null });
        const counts = countsOf(
          await importQuarter(context, body, url, amendedOfferings, (rows) => context.report({ rows: total.read + rows })),
        );
        await context.progress.markDone(partOf(q), { ...counts });
        for (const key of ['read', 'inserted', 'updated', 'refused'] as const) total[key] += counts[key];
      } // else not published yet: the next run asks again
      context.report({ rows: total.read, parts: { done: i + 1, total: quarters.length } });
    }
  } finally {
    // A run that stops leaves no download behind it.
    await next?.catch(() => {});
  }
  return total;
}

export const formdKind: DataSetKind = {
  type: 'formd',
  family: 'data-set',
  defaultIntervalMs: 24 * 3_600_000,
  mirrorName: 'sec',
  defaultLocator: FORM_D_URL_PATTERN,
  normalizeLocator(locator) {
    if (!locator.includes('{year}') || !locator.includes('{quarter}'))
      throw new SourceInputError('a formd locator is a URL pattern with {year} and {quarter}');
    let url: URL;
    try {
      url = new URL(locator.replace('{year}', '2024').replace('{quarter}', '1'));
    } catch {
      throw new SourceInputError(`locator must be an http or https URL pattern, got "${locator}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceInputError('locator must be an http or https URL pattern');
    if (url.username || url.password) throw new SourceInputError('locator must not carry credentials');
    return { locator, key: locator };
  },
  read,
};
