import type { Kysely } from 'kysely';

// Competitors search reads a company's peers: the same industry, the same market (country) and
// the same or an adjacent size band (src/companies/competitors.ts). One index answers that read
// without scanning the industry.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('companies_peers').on('companies').columns(['industry_id', 'country_code', 'size_label']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('companies_peers').execute();
}
