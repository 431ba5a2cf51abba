import type { Kysely } from 'kysely';

// Competitors search reads a company's peers: the same industry, the same market (country) and
// the same or an adjacent size band (src/companies/competitors.ts). One index answers that read
// without scanning the industry. People search across the store reads the roles of a job
// function (src/people/people-search.ts): by function words, most senior first.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('companies_peers').on('companies').columns(['industry_id', 'country_code', 'size_label']).execute();
  await db.schema.createIndex('person_roles_fn_rank').on('person_roles').columns(['fn', 'rank', 'person_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('person_roles_fn_rank').execute();
  await db.schema.dropIndex('companies_peers').execute();
}
