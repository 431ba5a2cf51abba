import { sql, type Kysely } from 'kysely';

// Company search and the role finder look a company up by its professional-network page URL,
// compared in lower case without scheme (as stored) with and without "www.".
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('companies_prof_url_lower')
    .on('companies')
    .expression(sql`lower(prof_url)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('companies_prof_url_lower').execute();
}
