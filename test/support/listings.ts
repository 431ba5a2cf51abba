// Listings for tests and chaos runs that need /jobs-finder to find something: one company's
// Platform Engineer postings on one board, an hour apart, imported through the job service.
import type { Db } from '../../src/db/database.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';

export interface SeedListingsOptions {
  count: number;
  /** Names the company (`<word> Corp`, https://<word>.example) and the postings. */
  word: string;
  /** Starts each posting's source id and apply URL. */
  idPrefix: string;
  board: string;
}

export async function seedListings(db: Db, options: SeedListingsOptions): Promise<void> {
  const companies = new CompanyService({ db });
  const jobs = new JobService({ db, companies });
  const now = Date.now();
  const { word, idPrefix } = options;
  try {
    await jobs.importer.importBoard(
      Array.from({ length: options.count }, (_, i) => ({
        sourceId: `${idPrefix}${i}`,
        title: 'Platform Engineer',
        location: 'Austin, TX',
        employmentTypes: ['Full-time'],
        publishedAt: now - i * 3600_000,
        descriptionHtml: `<p>${word} posting ${i}.</p>`,
        applyUrl: `https://jobs.example/${idPrefix.toLowerCase()}${i}`,
        company: { name: `${word} Corp`, website: `https://${word.toLowerCase()}.example` },
      })),
      { source: 'greenhouse', board: options.board, now },
    );
  } finally {
    await jobs.close();
  }
}
