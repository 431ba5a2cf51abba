import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// People search across the store reads roles by job function, by level and most senior first
// (src/people/people-search.ts). Each role now stores its job function (the label of the first
// function its function words belong to) and its level (the role key before ':', with its
// qualifier: "vp", "deputy chief"), written with the role, so a search is an equality on an index
// read in the answer's order (rank descending, then person) instead of words and patterns compared
// per row at query time.

/** The job functions as they stood when this migration was written: label and function words, in order. */
const FUNCTIONS: readonly [label: string, words: readonly string[]][] = [
  ['Sales & Business Development', ['sales', 'bizdev', 'account', 'revenue', 'commercial', 'partnerships']],
  ['Advertising & Marketing', ['marketing', 'growth', 'brand', 'communications', 'advertising', 'demand']],
  ['Engineering', ['engineer', 'engineering', 'software', 'technology', 'development', 'devops', 'rnd']],
  ['Product Management', ['product']],
  ['Finance & Accounting', ['finance', 'accounting', 'accountant', 'controller', 'treasury']],
  ['Human Resources', ['people', 'recruiting', 'recruiter', 'talent']],
  ['Operations', ['operations', 'logistics', 'supply', 'procurement']],
  ['Information Technology', ['it', 'information', 'security', 'infrastructure']],
  ['Legal', ['legal', 'counsel', 'compliance']],
  ['Customer Success & Support', ['customersuccess', 'support', 'customer']],
  ['Design', ['design', 'designer', 'ux']],
  ['Data & Analytics', ['data', 'analytics', 'analyst']],
  ['Executive', ['executive']],
];

const labelOf = (fn: string): string | null => {
  const words = fn.split(' ');
  return FUNCTIONS.find(([, w]) => w.some((x) => words.includes(x)))?.[0] ?? null;
};

/** Stored functions per update statement. */
const FNS_PER_UPDATE = 500;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('person_roles').addColumn('job_function', 'text').execute();
  await db.schema
    .alterTable('person_roles')
    .addColumn('job_level', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  // Backfill: the level in one statement; the function per distinct stored function (a few
  // hundred, read through index person_roles_fn_rank), so each update is an index range.
  const level = isPostgres(db) ? sql`split_part(role_key, ':', 1)` : sql`substr(role_key, 1, instr(role_key, ':') - 1)`;
  await db.updateTable('person_roles').set({ job_level: level }).execute();
  const fns = (await db.selectFrom('person_roles').select('fn').distinct().execute()).map((r) => String(r.fn));
  const byLabel = new Map<string, string[]>();
  for (const fn of fns) {
    const label = labelOf(fn);
    if (label) byLabel.set(label, [...(byLabel.get(label) ?? []), fn]);
  }
  for (const [label, list] of byLabel) {
    for (let i = 0; i < list.length; i += FNS_PER_UPDATE) {
      await db
        .updateTable('person_roles')
        .set({ job_function: label })
        .where('fn', 'in', list.slice(i, i + FNS_PER_UPDATE))
        .execute();
    }
  }

  // The search's reads: by function, by level, or neither, each in the answer's order; by company.
  // Each holds the columns the other filters read (level, company, person), so a read that checks
  // them walks the index alone.
  await db.schema
    .createIndex('person_roles_function_order')
    .on('person_roles')
    .columns(['job_function', 'rank desc', 'person_id', 'job_level', 'company_id'])
    .execute();
  await db.schema
    .createIndex('person_roles_level_order')
    .on('person_roles')
    .columns(['job_level', 'rank desc', 'person_id', 'company_id'])
    .execute();
  await db.schema.createIndex('person_roles_order').on('person_roles').columns(['rank desc', 'person_id', 'company_id']).execute();
  await db.schema
    .createIndex('person_roles_company_function')
    .on('person_roles')
    .columns(['company_id', 'job_function', 'job_level', 'rank', 'person_id'])
    .execute();
  // Company facts that select few companies are read as the list of those companies.
  await db.schema.createIndex('companies_country_code').on('companies').column('country_code').execute();
  await db.schema.createIndex('companies_industry').on('companies').column('industry').execute();
  await db.schema.createIndex('companies_size_label').on('companies').column('size_label').execute();
  // Read only by the function words of the previous search.
  await db.schema.dropIndex('person_roles_fn_rank').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('person_roles_fn_rank').on('person_roles').columns(['fn', 'rank', 'person_id']).execute();
  for (const index of [
    'companies_size_label',
    'companies_industry',
    'companies_country_code',
    'person_roles_company_function',
    'person_roles_order',
    'person_roles_level_order',
    'person_roles_function_order',
  ])
    await db.schema.dropIndex(index).execute();
  await db.schema.alterTable('person_roles').dropColumn('job_level').execute();
  await db.schema.alterTable('person_roles').dropColumn('job_function').execute();
}
