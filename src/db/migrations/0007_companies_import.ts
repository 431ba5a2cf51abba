import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// Imports: companies.domain loses its own unique index. A domain's owner is decided by
// company_domains (primary key domain), which holds the primary domain of every company too, so
// the second index on the same random keys only doubled the B-tree work of every imported company.
// The repository keeps the rule: a company's primary domain is always its own company_domains row.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table companies drop constraint if exists companies_domain_key`.execute(db);
    return;
  }
  // SQLite cannot drop a column constraint: the table is rebuilt (the documented procedure:
  // foreign keys off, new table, copy, drop, rename, check). Migrations run outside a
  // transaction on SQLite, so the pragma takes effect and the rebuild is one transaction.
  const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'companies'`.execute(db);
  const createSql = table.rows[0]?.sql;
  if (!createSql) throw new Error('companies table not found');
  const rebuilt = createSql
    .replace(/^CREATE TABLE "companies"/i, 'create table "companies_rebuilt"')
    .replace(/"domain" text unique/i, '"domain" text');
  if (!/^create table "companies_rebuilt"/.test(rebuilt) || /"domain" text unique/i.test(rebuilt)) {
    throw new Error('unexpected definition of the companies table');
  }
  const indexes = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'index' and tbl_name = 'companies' and sql is not null`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const sequence = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'companies'`.execute(db);
      await sql.raw(rebuilt).execute(db);
      await sql`insert into companies_rebuilt select * from companies`.execute(db);
      await sql`drop table companies`.execute(db);
      await sql`alter table companies_rebuilt rename to companies`.execute(db);
      for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
      // Ids of deleted companies are never given again (autoincrement): keep the counter.
      const seq = sequence.rows[0]?.seq;
      if (seq !== undefined) await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = 'companies'`.execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`foreign keys broken by the companies rebuild: ${JSON.stringify(broken.rows.slice(0, 3))}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  // The same guarantee back, as an index of its own (no rebuild needed for that on SQLite).
  if (isPostgres(db)) await sql`alter table companies add constraint companies_domain_key unique (domain)`.execute(db);
  else await sql`create unique index companies_domain on companies (domain)`.execute(db);
}
