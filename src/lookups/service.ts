import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database.ts';

export type LookupList = 'job_types' | 'job_regions' | 'job_company_types' | 'job_industries';

/** The reference lists, served from the database (seeded by the platform migration). */
export class LookupService {
  /**
   * The lists only change with a migration, so one read per process is enough; concurrent first
   * requests share that one read (lru-cache's fetch), and a failed read is tried again next time.
   */
  private readonly cache: LRUCache<LookupList | 'job_countries', { id: number | string; name: string }[]>;

  constructor(private readonly db: Db) {
    this.cache = new LRUCache({
      max: 16,
      fetchMethod: async (name): Promise<{ id: number | string; name: string }[]> =>
        name === 'job_countries'
          ? await this.db.selectFrom('job_countries').select(['id', 'name']).orderBy('id').execute()
          : await this.db.selectFrom(name).select(['id', 'name']).orderBy('id').execute(),
    });
  }

  async list(table: LookupList): Promise<{ id: number; name: string }[]> {
    return (await this.cache.fetch(table)) as { id: number; name: string }[];
  }

  async countries(): Promise<{ id: string; name: string }[]> {
    return (await this.cache.fetch('job_countries')) as { id: string; name: string }[];
  }
}
