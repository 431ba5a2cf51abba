// The technologies a company uses, read from its job listings (titles and descriptions) against the
// maintained dictionary (technologies.ts), each with its evidence: how many of the listings read name
// it, when the first and the last of them were published, and a link to the latest. Only the company's most
// recent POSTINGS_READ listings are read, so the answer's cost is bounded however many it has.
import type { Db } from '../db/database.ts';
import { technologies, type Technology } from './technologies.ts';

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

/** The technologies a company's listings name, most-named first, and how many listings were read; null when it has none. */
export async function technographicsOf(
  db: Db,
  companyId: number,
): Promise<{ technologies: TechnologyEvidence[]; postings_read: number } | null> {
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
    for (const tech of dictionary.namedIn(`${row.title}\n${row.description}`)) {
      const held = byName.get(tech.name);
      if (!held) {
        byName.set(tech.name, {
          ...tech,
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
  const found = [...byName.values()].sort((a, b) => b.postings - a.postings || a.name.localeCompare(b.name));
  return found.length ? { technologies: found, postings_read: rows.length } : null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
