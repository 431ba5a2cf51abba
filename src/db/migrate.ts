import SQLite from 'better-sqlite3';
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { dialectOf, type Db } from './database.ts';
import * as platform from './migrations/0001_platform.ts';
import * as companies from './migrations/0002_companies.ts';
import * as email from './migrations/0003_email.ts';
import * as jobs from './migrations/0004_jobs.ts';
import * as people from './migrations/0005_people.ts';
import * as jobsSearch from './migrations/0006_jobs_search.ts';
import * as companiesImport from './migrations/0007_companies_import.ts';
import * as jobsStagedIndex from './migrations/0008_jobs_staged_index.ts';
import * as companiesDomainlessNames from './migrations/0009_companies_domainless_names.ts';
import * as idempotencyOwner from './migrations/0010_idempotency_owner.ts';
import * as queue from './migrations/0011_queue.ts';
import * as emailBulk from './migrations/0012_email_bulk.ts';
import * as sources from './migrations/0013_sources.ts';
import * as companyProfileUrl from './migrations/0014_company_profile_url.ts';
import * as sourceProgress from './migrations/0015_source_progress.ts';
import * as bootstrap from './migrations/0016_bootstrap.ts';
import * as companyPeers from './migrations/0017_company_peers.ts';
import * as consoleTables from './migrations/0018_console.ts';
import * as queueFairness from './migrations/0019_queue_fairness.ts';
import * as bulkProducts from './migrations/0020_bulk_products.ts';
import * as outboundIdentities from './migrations/0021_outbound_identities.ts';
import * as jobTerms from './migrations/0022_job_terms.ts';
import * as companyRelations from './migrations/0023_company_relations.ts';
import * as peopleSearch from './migrations/0024_people_search.ts';
import * as probeLeases from './migrations/0025_probe_leases.ts';
import * as jobTermsNarrow from './migrations/0026_job_terms_narrow.ts';
import * as peopleSearchFacts from './migrations/0027_people_search_facts.ts';
import * as bulkLifecycle from './migrations/0028_bulk_lifecycle.ts';
import * as jobTechnologies from './migrations/0029_job_technologies.ts';
import * as bulkProgress from './migrations/0030_bulk_progress.ts';
import * as jobTermsTriples from './migrations/0031_job_terms_triples.ts';
import * as jobFacetsCovering from './migrations/0032_job_facets_covering.ts';
import * as jobTermsPartitions from './migrations/0033_job_terms_partitions.ts';
import * as jobsDropDescriptionTsv from './migrations/0034_jobs_drop_description_tsv.ts';
import * as jobCountedTerms from './migrations/0035_job_counted_terms.ts';
import * as jobFacetAttrDaysTogether from './migrations/0036_job_facet_attr_days_together.ts';

// One ordered set of migrations for both dialects. A migration that needs
// dialect-specific SQL asks dialectOf(db).
export const migrations: Record<string, Migration> = {
  '0001_platform': platform,
  '0002_companies': companies,
  '0003_email': email,
  '0004_jobs': jobs,
  '0005_people': people,
  '0006_jobs_search': jobsSearch,
  '0007_companies_import': companiesImport,
  '0008_jobs_staged_index': jobsStagedIndex,
  '0009_companies_domainless_names': companiesDomainlessNames,
  '0010_idempotency_owner': idempotencyOwner,
  '0011_queue': queue,
  '0012_email_bulk': emailBulk,
  '0013_sources': sources,
  '0014_company_profile_url': companyProfileUrl,
  '0015_source_progress': sourceProgress,
  '0016_bootstrap': bootstrap,
  '0017_company_peers': companyPeers,
  '0018_console': consoleTables,
  '0019_queue_fairness': queueFairness,
  '0020_bulk_products': bulkProducts,
  '0021_outbound_identities': outboundIdentities,
  '0022_job_terms': jobTerms,
  '0023_company_relations': companyRelations,
  '0024_people_search': peopleSearch,
  '0025_probe_leases': probeLeases,
  '0026_job_terms_narrow': jobTermsNarrow,
  '0027_people_search_facts': peopleSearchFacts,
  '0028_bulk_lifecycle': bulkLifecycle,
  '0029_job_technologies': jobTechnologies,
  '0030_bulk_progress': bulkProgress,
  '0031_job_terms_triples': jobTermsTriples,
  '0032_job_facets_covering': jobFacetsCovering,
  '0033_job_terms_partitions': jobTermsPartitions,
  '0034_jobs_drop_description_tsv': jobsDropDescriptionTsv,
  '0035_job_counted_terms': jobCountedTerms,
  '0036_job_facet_attr_days_together': jobFacetAttrDaysTogether,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  if (dialectOf(db) === 'postgres') return runMigrations(db);
  const file = (await sql<{ name: string; file: string }>`pragma database_list`.execute(db)).rows.find((r) => r.name === 'main')?.file;
  return file ? withMigrationLock(file, () => runMigrations(db)) : runMigrations(db);
}

/** How long a process waits for another one's migrations on the same SQLite file before it gives up. */
const MIGRATION_LOCK_WAIT_MS = 30 * 60_000;

/**
 * Runs `migrate` while holding an exclusive lock on `<file>.migrate-lock`. Kysely takes no lock on
 * SQLite and runs its migrations outside a transaction, so two processes starting on a brand-new
 * file would both see it empty and the second would fail on tables the first had just made. The
 * lock is SQLite's own file lock on a separate file: the migrations keep the database's write lock
 * to themselves, and a process that dies holding it releases it with its file handles.
 */
async function withMigrationLock<T>(file: string, migrate: () => Promise<T>): Promise<T> {
  const lock = new SQLite(`${file}.migrate-lock`);
  try {
    lock.pragma('busy_timeout = 1000');
    const giveUpAt = Date.now() + MIGRATION_LOCK_WAIT_MS;
    for (;;) {
      try {
        lock.exec('begin exclusive');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > giveUpAt) throw error;
        // Let this process's timers and signals run between waits instead of blocking in one long call.
        await new Promise((done) => setTimeout(done, 50));
      }
    }
    return await migrate();
  } finally {
    lock.close();
  }
}

async function runMigrations(db: Db): Promise<MigrationReport> {
  // Name the schema explicitly on PostgreSQL: otherwise Kysely may see another schema's
  // migration tables in the same database and think its own exist.
  const migrationTableSchema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: new StaticProvider(), migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const where = failed ? ` (in ${failed.migrationName})` : '';
    throw new Error(`migration failed${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
