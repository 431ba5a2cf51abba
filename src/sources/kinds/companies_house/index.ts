// UK Companies House free company data (docs/data/companies_house.md): the monthly
// BasicCompanyData release, every company on the register. The download page lists the current
// release as one zip and in parts; a run reads the newest release it lists (or, when the page lists
// none, the file named after this month or the last), part by part, each part stored whole before
// the next, with checkpoints inside a part so an interrupted load resumes where it stopped.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunCounts } from '../../tables.ts';
import { SourceInputError } from '../../source-input-error.ts';
import { importCompaniesHouseFile } from '../../../ingest/companies/companies-house-import.ts';
import { parallelByDefault } from '../../../ingest/companies/parallel.ts';
import { mirrored } from '../upstream.ts';
import type { DataSetKind, KindRunContext } from '../../kind.ts';

const DAY = 24 * 60 * 60 * 1000;

/** The published page listing the current release. */
const LISTING = 'https://download.companieshouse.gov.uk/en_output.html';

/** Largest file downloaded: the one-file zip is about 450-500 MB; room for the register to grow. */
const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;

/** One file of a release, as the listing names it. */
export interface ReleaseFile {
  /** The file's name, e.g. BasicCompanyData-2026-11-01-part1_7.zip (its part name in source_parts). */
  name: string;
  url: string;
}

export interface Release {
  /** The release's date, YYYY-MM-DD. */
  date: string;
  files: ReleaseFile[];
  /** How the release was found: on the listing page, or by trying the month's file name. */
  foundBy: 'listing' | 'month name' | 'locator';
}

const LINK = /href\s*=\s*["']?([^"'\s>]*?(BasicCompanyData(?:AsOneFile)?-(\d{4}-\d{2}-\d{2})(?:-part(\d+)_(\d+))?\.zip))/gi;

/**
 * The newest release a listing page links to: its parts when every part is listed (each is stored
 * whole, so a run resumes part by part), else its one file. Null when the page links to none.
 */
export function newestRelease(html: string, pageUrl: string): Release | null {
  type Listed = { one?: ReleaseFile; parts: Map<number, ReleaseFile>; of: number };
  const byDate = new Map<string, Listed>();
  for (const m of html.matchAll(LINK)) {
    const [, href, name, date, part, of] = m;
    const entry: Listed = byDate.get(date) ?? { parts: new Map<number, ReleaseFile>(), of: 0 };
    const file = { name, url: new URL(href, pageUrl).toString() };
    if (part) {
      entry.parts.set(Number(part), file);
      entry.of = Math.max(entry.of, Number(of));
    } else entry.one = file;
    byDate.set(date, entry);
  }
  const date = [...byDate.keys()].sort().at(-1);
  if (!date) return null;
  const entry = byDate.get(date)!;
  const complete = entry.of > 0 && Array.from({ length: entry.of }, (_, i) => entry.parts.has(i + 1)).every(Boolean);
  if (complete) return { date, files: [...entry.parts.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f), foundBy: 'listing' };
  if (entry.one) return { date, files: [entry.one], foundBy: 'listing' };
  throw new Error(
    `${pageUrl} lists only parts ${[...entry.parts.keys()].sort((a, b) => a - b).join(', ')} of ${entry.of} of the ${date} release`,
  );
}

/** The one-file name of the release dated the first of the month `back` months before `now`. */
function monthFile(now: number, back: number): { date: string; name: string } {
  const d = new Date(now);
  const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1));
  const date = month.toISOString().slice(0, 10);
  return { date, name: `BasicCompanyDataAsOneFile-${date}.zip` };
}

const isNotFound = (error: unknown) => (error as { status?: unknown })?.status === 404;

/** Data rows stored by an interrupted run of the file (its checkpoints), 0 when none. */
function resumeAt(done: Map<string, number>, file: string): number {
  let rows = 0;
  for (const part of done.keys()) {
    const m = part.startsWith(`${file}#rows=`) ? /#rows=(\d+)$/.exec(part) : null;
    if (m) rows = Math.max(rows, Number(m[1]));
  }
  return rows;
}

async function download(context: KindRunContext, url: string, path: string, part: string): Promise<void> {
  const onBytes = (bytes: number, totalBytes: number | null) => context.report({ part, bytes, totalBytes });
  if (context.fetch.download) await context.fetch.download(url, path, 'application/zip', MAX_FILE_BYTES, onBytes);
  else writeFileSync(path, await context.fetch.get(url, 'application/zip', MAX_FILE_BYTES, undefined, onBytes));
}

async function read(context: KindRunContext): Promise<RunCounts> {
  const { source } = context;
  const counts: RunCounts = { read: 0, inserted: 0, updated: 0, expired: 0, refused: 0 };
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-companies-house-'));
  try {
    let release: Release | null;
    // A file already downloaded while its release was looked for (trying the month's name).
    let fetched: { name: string; path: string } | null = null;
    if (/\.zip$/i.test(new URL(source.locator).pathname)) {
      const name = new URL(source.locator).pathname.split('/').pop()!;
      const date = /(\d{4}-\d{2}-\d{2})/.exec(name)?.[1] ?? name;
      release = { date, files: [{ name, url: source.locator }], foundBy: 'locator' };
    } else {
      const page = mirrored(source.locator, source.base_url);
      release = newestRelease(await context.fetch.getText(page, 'text/html'), page);
      if (!release) {
        // The page links to no release (its layout changed): try this month's file, then last month's.
        for (const back of [0, 1]) {
          const { date, name } = monthFile(context.now, back);
          const url = new URL(name, page).toString();
          const path = join(dir, name);
          try {
            await download(context, url, path, name);
          } catch (error) {
            if (isNotFound(error)) continue;
            throw error;
          }
          release = { date, files: [{ name, url }], foundBy: 'month name' };
          fetched = { name, path };
          break;
        }
        if (!release) throw new Error(`${page} links to no BasicCompanyData file, and neither this month's nor last month's file exists`);
      }
    }
    const releasePart = `release ${release.date}`;
    if (await context.progress.isDone(releasePart)) return counts;
    const done = await context.progress.doneParts();
    const todo = release.files.filter((file) => !done.has(file.name));
    context.report({ rows: 0, parts: { done: 0, total: todo.length } });
    for (const [index, file] of todo.entries()) {
      context.signal?.throwIfAborted();
      const url = mirrored(file.url, source.base_url);
      const path = fetched?.name === file.name ? fetched.path : join(dir, file.name);
      if (fetched?.name !== file.name) await download(context, url, path, file.name);
      const skipRows = resumeAt(done, file.name);
      // While it is stored, the part's progress is how far into the file the reading is.
      const size = statSync(path).size;
      const run = importCompaniesHouseFile({
        service: context.companies,
        path,
        parallel: parallelByDefault(),
        skipRows,
        seenAt: context.now,
        signal: context.signal,
        onCheckpoint: (rows) => context.progress.markDone(`${file.name}#rows=${rows}`),
        onBatch: (summary) =>
          context.report({ part: file.name, rows: counts.read + summary.read, bytes: run.position(), totalBytes: size }),
      });
      let summary;
      try {
        summary = await run.done;
      } catch (error) {
        throw new Error(`${url}: ${(error as Error).message}`, { cause: error });
      }
      rmSync(path, { force: true });
      const fileCounts = {
        read: summary.read,
        inserted: summary.inserted,
        updated: summary.updated,
        expired: 0,
        refused: summary.rejectedTotal,
      };
      for (const key of ['read', 'inserted', 'updated', 'refused'] as const) counts[key] += fileCounts[key];
      await context.progress.markDone(file.name, {
        ...fileCounts,
        url,
        release: release.date,
        found_by: release.foundBy,
        resumed_at_row: skipRows,
        rejections: summary.rejected.slice(0, 20),
      });
      context.report({ rows: counts.read, parts: { done: index + 1, total: todo.length } });
    }
    await context.progress.markDone(releasePart, { files: release.files.map((f) => f.name), found_by: release.foundBy });
    return counts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const companiesHouseKind: DataSetKind = {
  type: 'companies_house',
  family: 'data-set',
  // The release is monthly; a daily look at the listing page (one small page) picks it up within a day.
  defaultIntervalMs: DAY,
  mirrorName: 'companies-house',
  defaultLocator: LISTING,
  normalizeLocator(locator) {
    let url: URL;
    try {
      url = new URL(locator);
    } catch {
      throw new SourceInputError(
        `a companies_house source is the address of the download page or of a BasicCompanyData zip, not ${locator}`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceInputError(`${locator}: only http(s) addresses are read`);
    const text = url.toString();
    return { locator: text, key: text.toLowerCase() };
  },
  read,
};
