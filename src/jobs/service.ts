// The jobs domain as the rest of leadbase sees it: the jobs-finder search, the search index's
// upkeep, and (built on first use) the import pipeline.
import type { HiddenByDefaults, JobSearchResult } from '../contract/jobs.ts';
import { JobImporter, type JobServiceDeps } from './importer.ts';
import { JobRepository } from './repository.ts';
import type { MergeOptions } from './staged-index.ts';
import { JobSearch, type JobSearchFilters, type JobSearchOptions } from './search.ts';
import { buildTechnologies, technographicsOf } from './technographics.ts';
import { countTerm, listCountedTerms, type CountedTermInfo, type CountTermOutcome } from './counted-terms.ts';
import { parseTextQuery } from './fts-query.ts';
import { singleTerm } from './search-terms.ts';

export class JobService {
  readonly repository: JobRepository;
  readonly searcher: JobSearch;
  private built?: JobImporter;

  constructor(private readonly deps: JobServiceDeps & { search?: JobSearchOptions }) {
    this.repository = new JobRepository(deps.db);
    this.searcher = new JobSearch(deps.db, deps.companies, deps.search);
  }

  /** The import pipeline, built on first use: a server that only searches never pays for it. */
  get importer(): JobImporter {
    return (this.built ??= new JobImporter(this.deps));
  }

  /** Stops the import pipeline's normalization thread, if one was started, once the terms being made counted are. */
  async close(): Promise<void> {
    await this.searcher.settled();
    await this.built?.close();
  }

  /** Makes staged listings searchable (see staged-index.ts); returns how many it merged. */
  mergeStagedIndex(options?: MergeOptions): Promise<number> {
    return this.repository.mergeStagedIndex(options);
  }

  /** Compacts the search index after a large load (see JobRepository.optimizeSearchIndex). */
  optimizeSearchIndex(): Promise<void> {
    return this.repository.optimizeSearchIndex();
  }

  /** The technologies a company's listings name, with their evidence (technographics.ts); null when none is named. */
  technographics(companyId: number): ReturnType<typeof technographicsOf> {
    return technographicsOf(this.deps.db, companyId);
  }

  /** Makes the stored technology matches current when they are not (technographics.ts); returns the listings read. */
  buildTechnologies(options?: { signal?: AbortSignal }): Promise<number> {
    return buildTechnologies(this.deps.db, options);
  }

  /** PostgreSQL: the counted description terms (counted-terms.ts); none on SQLite, which has no need of them. */
  async countedTerms(): Promise<CountedTermInfo[]> {
    return this.searcher.dialect === 'postgres' ? listCountedTerms(this.deps.db) : [];
  }

  /**
   * PostgreSQL: makes a description term counted now rather than after a costly search of it. The
   * text is keyed as a quoted `job_description` is: a word or a phrase of up to three words
   * (`Month-end close` is `month end close`); `term` is null when it is not one.
   */
  async countTerm(text: string): Promise<{ term: string | null; outcome: CountTermOutcome }> {
    const term = singleTerm(parseTextQuery(`"${text.replaceAll('"', ' ')}"`));
    if (!term) return { term, outcome: 'not-countable' };
    return { term, outcome: await countTerm(this.deps.db, term) };
  }

  search(filters: JobSearchFilters, now = Date.now()): Promise<JobSearchResult> {
    return this.searcher.search(filters, now);
  }

  /** For a search that found nothing: what the defaults it did not override hid (JobSearch.hiddenByDefaults). */
  hiddenByDefaults(filters: JobSearchFilters, now = Date.now()): Promise<HiddenByDefaults | null> {
    return this.searcher.hiddenByDefaults(filters, now);
  }
}
