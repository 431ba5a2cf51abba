// Which source's value a company's fact takes: pure functions over a stored row and one report,
// with no database access, so the rule is read and tested in one place.
import type { CompanyRow, CompanyTable } from './tables.ts';
import type { CompanyFacts } from './input.ts';

/** How much a source is trusted: a fact is replaced only by a source of equal or higher rank. */
const SOURCE_RANK: Record<string, number> = { jsonl: 3, pdl: 2, 'sec-formd': 2 };

export function sourceRank(source: string): number {
  return SOURCE_RANK[source.split(':')[0]] ?? 1;
}

/** field_sources JSON: source → when it was last seen and which facts it currently owns. */
export type FieldSources = Record<string, { seen_at: number; fields: string[] }>;

/**
 * `fields` of a row's only source when it owns every fact set in the row: how new rows are stored
 * (a list of a dozen names was over half of a typical row), expanded by parseSources.
 */
export const ALL_SET_FACTS = '*';

/** Every fact column of the companies table, in table order. */
export const FACT_COLUMNS = [
  'name',
  'normalized_name',
  'domain',
  'website',
  'short_name',
  'description',
  'industry',
  'industry_id',
  'size_label',
  'employee_count',
  'employee_growth',
  'founded_year',
  'company_type',
  'status',
  'ownership',
  'phone',
  'followers',
  'revenue',
  'total_funding',
  'technology_stack',
  'sectors',
  'location_name',
  'locality',
  'region',
  'metro',
  'country',
  'country_code',
  'continent',
  'street_address',
  'address_line_2',
  'postal_code',
  'geo',
  'prof_url',
  'prof_id',
  'social_a_url',
  'social_b_url',
  'social_b_handle',
  'code_host_url',
] as const satisfies readonly (keyof CompanyFacts)[];

/** Facts that follow another one rather than being owned on their own. */
const FOLLOWERS: Partial<Record<keyof CompanyFacts, keyof CompanyFacts>> = { normalized_name: 'name' };

/** The field_sources of a stored row, before anything in the row changes (see ALL_SET_FACTS). */
export function parseSources(row: CompanyRow): FieldSources {
  let v: Record<string, { seen_at: number; fields: string[] | typeof ALL_SET_FACTS }>;
  try {
    v = JSON.parse(row.field_sources) as typeof v;
  } catch {
    return {};
  }
  if (!v || typeof v !== 'object') return {};
  for (const entry of Object.values(v)) {
    if (entry?.fields === ALL_SET_FACTS) entry.fields = FACT_COLUMNS.filter((c) => !(c in FOLLOWERS) && row[c] !== null);
  }
  return v as FieldSources;
}

/**
 * Folds one report's facts into a stored row: a fact changes when the stored value is missing, or
 * when the reporting source ranks at least as high as the one that set it (later imports win among
 * equals). The primary domain is never replaced here (other domains become secondary). `row`,
 * `sources` and `changes` are updated in place.
 */
export function mergeFacts(
  row: CompanyRow,
  sources: FieldSources,
  changes: Partial<Omit<CompanyTable, 'id'>>,
  facts: CompanyFacts,
  source: string,
  rank: number,
): void {
  const owner = new Map<string, string>();
  for (const [s, v] of Object.entries(sources)) for (const f of v.fields) owner.set(f, s);
  const own = (field: string) => {
    const previous = owner.get(field);
    if (previous === source) return;
    if (previous) sources[previous].fields = sources[previous].fields.filter((f) => f !== field);
    (sources[source] ??= { seen_at: 0, fields: [] }).fields.push(field);
    owner.set(field, source);
  };
  const writable = row as unknown as Record<string, unknown>;
  const changed = changes as Record<string, unknown>;
  for (const [field, value] of Object.entries(facts) as [keyof CompanyFacts, unknown][]) {
    if (field === 'domain' || field in FOLLOWERS || value === undefined || value === null) continue;
    const current = writable[field];
    const previous = owner.get(field);
    const allowed = current === null || previous === undefined || rank >= sourceRank(previous);
    if (!allowed) continue;
    if (current !== value) {
      changed[field] = writable[field] = value;
      for (const [follower, leader] of Object.entries(FOLLOWERS)) {
        const followerValue = facts[follower as keyof CompanyFacts];
        if (leader === field && followerValue !== undefined) changed[follower] = writable[follower] = followerValue;
      }
    }
    own(field);
  }
}
