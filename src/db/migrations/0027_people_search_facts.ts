import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// People search by company facts (src/people/people-search.ts). Each role carries the facts of its
// company that the search filters on (country, industry, size band), so a search by country, or by
// industry, country and function, is one index range read in the answer's order (rank descending,
// then person) with no lookup of each role's company. A trigger on companies keeps the copies equal
// to the company's facts when an import changes them; the people import writes them with the role.
//
// Each role also carries its person's sample key: a fixed pseudo-random number of the person id
// (0..65535, a multiplicative hash that spreads consecutive ids evenly), so the estimate of a large
// total_count reads the people whose key is below a threshold: people spread over the whole store,
// not runs of consecutive ids, which come in company order.

/** Multiplier of the sample key: 65536 / golden ratio, odd (Fibonacci hashing). */
const SAMPLE_MULTIPLIER = 40503;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['company_country', 'company_industry', 'company_size'])
    await db.schema.alterTable('person_roles').addColumn(column, 'text').execute();
  await db.schema
    .alterTable('person_roles')
    .addColumn('sample_key', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Backfill in one pass over the roles.
  await sql`update person_roles as r
    set company_country = c.country_code, company_industry = c.industry, company_size = c.size_label,
      sample_key = ((r.person_id % 65536) * ${sql.lit(SAMPLE_MULTIPLIER)}) % 65536
    from companies as c where c.id = r.company_id`.execute(db);

  const copy = sql`update person_roles
    set company_country = new.country_code, company_industry = new.industry, company_size = new.size_label
    where company_id = new.id`;
  if (isPostgres(db)) {
    await sql`create function person_roles_company_facts() returns trigger language plpgsql as $$
      begin ${copy}; return null; end $$`.execute(db);
    await sql`create trigger person_roles_company_facts after update of country_code, industry, size_label on companies
      for each row when (old.country_code is distinct from new.country_code or old.industry is distinct from new.industry
        or old.size_label is distinct from new.size_label)
      execute function person_roles_company_facts()`.execute(db);
  } else {
    await sql`create trigger person_roles_company_facts after update of country_code, industry, size_label on companies
      when old.country_code is not new.country_code or old.industry is not new.industry or old.size_label is not new.size_label
      begin ${copy}; end`.execute(db);
  }

  // By country in the answer's order, the other filters' columns held so the read walks the index alone.
  await db.schema
    .createIndex('person_roles_country_order')
    .on('person_roles')
    .columns(['company_country', 'rank desc', 'person_id', 'company_size', 'company_industry', 'job_function', 'job_level', 'company_id'])
    .execute();
  // By industry, then country and function: equality on the three reads in the answer's order; a
  // count by industry (and country) reads a range whatever the order.
  await db.schema
    .createIndex('person_roles_industry_order')
    .on('person_roles')
    .columns(['company_industry', 'company_country', 'job_function', 'rank desc', 'person_id', 'company_size', 'job_level', 'company_id'])
    .execute();
  // has_email: whether a person holds a work address not known to be invalid, read from the index
  // alone (the address rows are wide and scattered; a count checks thousands of people).
  await db.schema.createIndex('person_emails_work').on('person_emails').columns(['person_id', 'kind', 'status']).execute();
  // The estimate's sample, with every column a filter reads.
  await db.schema
    .createIndex('person_roles_sample')
    .on('person_roles')
    .columns([
      'sample_key',
      'person_id',
      'rank',
      'job_function',
      'job_level',
      'company_country',
      'company_industry',
      'company_size',
      'company_id',
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['person_roles_sample', 'person_emails_work', 'person_roles_industry_order', 'person_roles_country_order'])
    await db.schema.dropIndex(index).execute();
  await sql`drop trigger person_roles_company_facts${isPostgres(db) ? sql` on companies` : sql``}`.execute(db);
  if (isPostgres(db)) await sql`drop function person_roles_company_facts()`.execute(db);
  for (const column of ['sample_key', 'company_size', 'company_industry', 'company_country'])
    await db.schema.alterTable('person_roles').dropColumn(column).execute();
}
