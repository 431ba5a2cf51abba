import type { Db } from '../db/database.ts';

export type LookupList = 'job_types' | 'job_regions' | 'job_company_types' | 'job_industries';

/** The reference lists, served from the database (seeded by the platform migration). */
export class LookupService {
  private readonly cache = new Map<string, unknown>();

  constructor(private readonly db: Db) {}

  async list(table: LookupList): Promise<{ id: number; name: string }[]> {
    return this.cached(table, () => this.db.selectFrom(table).select(['id', 'name']).orderBy('id').execute());
  }

  async countries(): Promise<{ id: string; name: string }[]> {
    return this.cached('job_countries', () => this.db.selectFrom('job_countries').select(['id', 'name']).orderBy('id').execute());
  }

  /** The lists only change with a migration, so one read per process is enough. */
  private async cached<T>(name: string, load: () => Promise<T>): Promise<T> {
    if (!this.cache.has(name)) this.cache.set(name, await load());
    return this.cache.get(name) as T;
  }
}
