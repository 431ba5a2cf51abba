import { sql, type Kysely } from 'kysely';

// Name matching during imports: a report that brings a domain is merged by name only into a company
// without a domain (CompanyRepository.resolve), so its name key is looked up among those first.
// This partial index holds only them: a company with a domain costs it nothing, and the lookup
// of a million new names no longer seeks the full name index.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('companies_domainless_name')
    .on('companies')
    .column('normalized_name')
    .where(sql.ref('domain'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('companies_domainless_name').execute();
}
