// The technologies a company uses, read from its job listings (titles and descriptions) against the
// maintained dictionary (technologies.ts), each with its evidence: how many of the listings read name
// it, when the first and the last of them were published, and a link to the latest. Only the company's
// most recent POSTINGS_READ listings are read, so the answer's cost is bounded however many it has.
//
// The matching is done once per listing, when it is stored (job_technologies, written by the import
// with the listing): an answer reads the window of listings from an index (jobs_company_published),
// the technology rows of that window from one key range, and the title and link of each technology's
// latest listing. No description is read. The rows are current while job_technologies_state holds
// the dictionary's fingerprint; when it does not (a store migrated with listings, or a changed
// dictionary), answers read and match the descriptions as before until buildTechnologies has run
// (the server starts it in the background).
import { dialectOf, type Db } from '../db/database.ts';
import { dictionaryFingerprint, listingTechnologies, technologies, type Technology } from './technologies.ts';
import { insertMany, listMatch, listParam, run } from './bulk-sql.ts';
import { inTransaction } from '../db/transaction.ts';

/** The most recent listings of a company read per answer. */
export const POSTINGS_READ = 500;

/** A technology as served, with its evidence. */
export interface TechnologyEvidence extends Technology {
  /** How many of the listings read name it. */
  postings: number;
  /** When the earliest of those listings was published (ISO 8601 UTC). */
  first_seen: string;
  /** When the latest of those listings was published (ISO 8601 UTC). */
  last_seen: string;
  /** The latest of those listings: its title and link. */
  posting_title: string;
  posting_url: string;
}

export type Technographics = { technologies: TechnologyEvidence[]; postings_read: number } | null;

/** The technologies a company's listings name, most-named first, and how many listings were read; null when it has none. */
export async function technographicsOf(db: Db, companyId: number): Promise<Technographics> {
  return (await storedMatchesCurrent(db)) ? fromStoredMatches(db, companyId) : technographicsFromDescriptions(db, companyId);
}

/** Evidence being gathered for one technology: the latest listing is kept by id until the end. */
interface Tally {
  postings: number;
  first: number;
  last: number;
  lastJob: number;
}

/** From job_technologies: the window's technology rows, then the latest listing of each. */
async function fromStoredMatches(db: Db, companyId: number): Promise<Technographics> {
  // The window's oldest listing and its rank: how many listings are read, and where their rows begin.
  const [edge] = await run<{ published_at: number | string; id: number | string; n: number | string }>(
    db,
    `select published_at, id, n from (
       select published_at, id, row_number() over (order by published_at desc, id desc) as n
       from jobs where company_id = ? order by published_at desc, id desc limit ?
     ) w order by n desc limit 1`,
    [companyId, POSTINGS_READ],
  );
  if (!edge) return null;
  const [fromAt, fromId] = [Number(edge.published_at), Number(edge.id)];
  const rows = await run<{ published_at: number | string; job_id: number | string; technology: string }>(
    db,
    'select published_at, job_id, technology from job_technologies where company_id = ? and published_at >= ?',
    [companyId, fromAt],
  );
  const tallies = new Map<string, Tally>();
  for (const row of rows) {
    const at = Number(row.published_at);
    const job = Number(row.job_id);
    // Listings published at the window's edge but older by id are outside it.
    if (at === fromAt && job < fromId) continue;
    const held = tallies.get(row.technology);
    if (!held) tallies.set(row.technology, { postings: 1, first: at, last: at, lastJob: job });
    else {
      held.postings++;
      if (at < held.first) held.first = at;
      if (at > held.last || (at === held.last && job > held.lastJob)) [held.last, held.lastJob] = [at, job];
    }
  }
  if (!tallies.size) return null;
  const dialect = dialectOf(db);
  const evidence = await run<{ id: number | string; title: string; application_url: string }>(
    db,
    `select id, title, application_url from jobs where ${listMatch(dialect, 'id', '?', 'bigint')}`,
    [listParam(dialect, [...new Set([...tallies.values()].map((t) => t.lastJob))])],
  );
  const byId = new Map(evidence.map((e) => [Number(e.id), e]));
  const dictionary = technologies();
  const found: TechnologyEvidence[] = [];
  for (const [name, t] of tallies) {
    // A name the dictionary no longer has (the rows are rebuilt when it changes) is left out.
    const tech = dictionary.named(name);
    const listing = byId.get(t.lastJob);
    if (!tech || !listing) continue;
    found.push({
      ...tech,
      postings: t.postings,
      first_seen: iso(t.first),
      last_seen: iso(t.last),
      posting_title: listing.title,
      posting_url: listing.application_url,
    });
  }
  return settle(found, Number(edge.n));
}

/** The listings' texts read and matched on the spot: while job_technologies is not current (and as the benchmark's baseline). */
export async function technographicsFromDescriptions(db: Db, companyId: number): Promise<Technographics> {
  const rows = await db
    .selectFrom('jobs')
    .select(['title', 'description', 'application_url', 'published_at'])
    .where('company_id', '=', companyId)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(POSTINGS_READ)
    .execute();
  if (!rows.length) return null;
  const dictionary = technologies();
  // Rows come latest first: a technology's first row is its latest listing.
  const byName = new Map<string, TechnologyEvidence>();
  for (const row of rows) {
    const published = iso(Number(row.published_at));
    for (const name of listingTechnologies(row.title, row.description)) {
      const held = byName.get(name);
      if (!held) {
        byName.set(name, {
          ...dictionary.named(name)!,
          postings: 1,
          first_seen: published,
          last_seen: published,
          posting_title: row.title,
          posting_url: row.application_url,
        });
        continue;
      }
      // Rows come latest first: each further one is earlier.
      held.postings++;
      held.first_seen = published;
    }
  }
  return settle([...byName.values()], rows.length);
}

function settle(found: TechnologyEvidence[], read: number): Technographics {
  found.sort((a, b) => b.postings - a.postings || a.name.localeCompare(b.name));
  return found.length ? { technologies: found, postings_read: read } : null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Per database: once the stored matches are current they stay so for this process (its dictionary does not change). */
const current = new WeakMap<Db, true>();
/** When a database's state was last read and found not current (read again at most every RECHECK_MS). */
const checkedAt = new WeakMap<Db, number>();
const RECHECK_MS = 10_000;

/** Whether job_technologies was made with this dictionary. A store that had nothing to build takes it as its own. */
async function storedMatchesCurrent(db: Db): Promise<boolean> {
  if (current.has(db)) return true;
  if (Date.now() - (checkedAt.get(db) ?? -Infinity) < RECHECK_MS) return false;
  const fingerprint = dictionaryFingerprint();
  await db.updateTable('job_technologies_state').set({ dictionary: fingerprint }).where('dictionary', '=', 'empty').execute();
  const state = await db.selectFrom('job_technologies_state').select('dictionary').executeTakeFirst();
  if (state?.dictionary === fingerprint) {
    current.set(db, true);
    return true;
  }
  checkedAt.set(db, Date.now());
  return false;
}

/** Forgets what this process knows of a database's stored matches (a test that changes the state behind its back). */
export function forgetTechnologyState(db: Db): void {
  current.delete(db);
  checkedAt.delete(db);
}

/** Listings matched per transaction of a build. */
const BUILD_BATCH = 1000;

/**
 * Makes job_technologies again with this dictionary when it was made with another (or never): every
 * listing with a company, in batches of BUILD_BATCH by id, then the state. Returns how many listings
 * were read (0 when the rows were current). Stops between batches when `signal` aborts (the next
 * start goes on from the beginning). Imports may run meanwhile: they write their rows as always.
 */
export async function buildTechnologies(db: Db, options: { signal?: AbortSignal } = {}): Promise<number> {
  if (await storedMatchesCurrent(db)) return 0;
  const fingerprint = dictionaryFingerprint();
  const dialect = dialectOf(db);
  await db.updateTable('job_technologies_state').set({ dictionary: '' }).execute();
  await db.deleteFrom('job_technologies').execute();
  let after = 0;
  let read = 0;
  for (;;) {
    if (options.signal?.aborted) return read;
    const batch = await db
      .selectFrom('jobs')
      .select(['id', 'company_id', 'published_at', 'title', 'description'])
      .where('id', '>', after)
      .where('company_id', 'is not', null)
      .orderBy('id')
      .limit(BUILD_BATCH)
      .execute();
    if (!batch.length) break;
    const rows: unknown[][] = [];
    for (const job of batch)
      for (const name of listingTechnologies(job.title, job.description))
        rows.push([Number(job.company_id), Number(job.published_at), Number(job.id), name]);
    await inTransaction(db, (trx) =>
      insertMany(
        trx,
        dialect,
        'insert into job_technologies (company_id, published_at, job_id, technology)',
        rows,
        'on conflict do nothing',
      ),
    );
    after = Number(batch[batch.length - 1].id);
    read += batch.length;
  }
  await db.updateTable('job_technologies_state').set({ dictionary: fingerprint }).execute();
  current.set(db, true);
  return read;
}
