// What importers and other domains hand to the company store (CompanyInput, the shape of one line
// of our JSONL format, docs/companies.md), and its validation into store rows (PreparedCompany).
import type {
  CompanyAcquisitionTable,
  CompanyRelationTable,
  CompanyArticleTable,
  CompanyCompetitorTable,
  CompanyHighlightTable,
  CompanyLeaderTable,
  CompanyTable,
  FundingRoundTable,
} from './tables.ts';
import { normalizeCompanyName, normalizeCompanyType, normalizeDomain, normalizeSizeLabel, sizeLabelForCount } from './normalize.ts';
import { industryIdFor } from './industry.ts';
import { lookupCountry } from './geography.ts';
import { parseMoney } from './format.ts';
import { everyKeyOf } from '../platform/field-list.ts';

export interface CompanyLocationInput {
  name?: string | null;
  locality?: string | null;
  region?: string | null;
  metro?: string | null;
  country?: string | null;
  continent?: string | null;
  street_address?: string | null;
  address_line_2?: string | null;
  postal_code?: string | null;
  /** "lat,lon" */
  geo?: string | null;
}

export interface FundingRoundInput {
  round?: string | null;
  /** ISO date or timestamp. */
  date?: string | null;
  /** US dollars: a number, or text such as "2,500,000" or "$2.5M". */
  amount?: number | string | null;
  currency?: string | null;
  investors?: string[] | null;
  /** Identity of the round in its source (for updates); default: round + date. */
  ref?: string | null;
}

export interface LeaderInput {
  /** Role key: ceo, cfo, cto, coo, founder … (lower case). */
  role: string;
  first_name?: string | null;
  last_name?: string | null;
  designation?: string | null;
  prof_url?: string | null;
  social_b_url?: string | null;
}

export interface HeadquartersInput {
  city?: string | null;
  state?: string | null;
  country?: string | null;
  full_address?: string | null;
}

export interface CompetitorInput {
  name: string;
  revenue?: string | null;
  employees?: string | null;
  total_funding?: string | null;
  headquarters?: HeadquartersInput | null;
  founded?: string | null;
  ownership?: string | null;
  website?: string | null;
}

export interface AcquisitionInput {
  company_name: string;
  date?: string | null;
  description?: string | null;
  source_url?: string | null;
}

/** How the company relates to another company (stored in company_relations). */
export interface RelationInput {
  /** The other company is the company's parent, its subsidiary, or a company it acquired. */
  relation: 'parent' | 'subsidiary' | 'acquired';
  company_name: string;
  /** The other company's Wikidata item (Q…), when known. */
  wikidata_id?: string | null;
  /** When the relation began (a date), when known. */
  since?: string | null;
}

export interface ArticleInput {
  title: string;
  /** Publisher name. */
  source?: string | null;
  date?: string | null;
  url?: string | null;
  /** Stable id of the item in its feed (guid/id). */
  guid?: string | null;
}

export interface HighlightInput {
  type?: string | null;
  text: string;
  source?: string | null;
  date?: string | null;
  src?: string | null;
}

/** One company as a source reports it. Every field is optional except a name for a new company. */
export interface CompanyInput {
  name?: string | null;
  /** Primary domain: a bare domain, a URL or an email all work. */
  domain?: string | null;
  website?: string | null;
  /** Further domains of the same company. */
  domains?: string[] | null;
  aliases?: string[] | null;
  /** Ids in outside systems, by kind: { sec_cik: "0001234567", pdl_id: "…" }. */
  external_ids?: Record<string, string> | null;
  short_name?: string | null;
  description?: string | null;
  industry?: string | null;
  sectors?: string[] | null;
  size_label?: string | null;
  employee_count?: number | null;
  employee_growth?: string | null;
  founded_year?: number | null;
  company_type?: string | null;
  status?: string | null;
  ownership?: string | null;
  phone?: string | null;
  followers?: number | null;
  revenue?: number | string | null;
  total_funding?: number | string | null;
  technology_stack?: string | string[] | null;
  location?: CompanyLocationInput | null;
  prof_url?: string | null;
  prof_id?: string | null;
  social_a_url?: string | null;
  social_b_url?: string | null;
  social_b_handle?: string | null;
  code_host_url?: string | null;
  funding_rounds?: FundingRoundInput[] | null;
  leadership?: LeaderInput[] | null;
  competitors?: CompetitorInput[] | null;
  acquisitions?: AcquisitionInput[] | null;
  relations?: RelationInput[] | null;
  news?: ArticleInput[] | null;
  press_releases?: ArticleInput[] | null;
  key_highlights?: HighlightInput[] | null;
}

/** Every field of CompanyInput (checked by everyKeyOf): a record's other keys are reported as not read, never dropped silently. */
export const COMPANY_INPUT_FIELDS = everyKeyOf<CompanyInput>()([
  'name',
  'domain',
  'website',
  'domains',
  'aliases',
  'external_ids',
  'short_name',
  'description',
  'industry',
  'sectors',
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
  'location',
  'prof_url',
  'prof_id',
  'social_a_url',
  'social_b_url',
  'social_b_handle',
  'code_host_url',
  'funding_rounds',
  'leadership',
  'competitors',
  'acquisitions',
  'relations',
  'news',
  'press_releases',
  'key_highlights',
]);

/** Scalar columns a source may set on a company. */
export type CompanyFacts = Partial<Omit<CompanyTable, 'id' | 'field_sources' | 'created_at' | 'updated_at'>>;

/** A child row's facts as a source reports them: the table's columns but its keys and provenance. */
type ChildFacts<T> = Omit<T, 'id' | 'company_id' | 'source' | 'seen_at'>;

/** Investors are a list here; the table keeps them as JSON text. */
export type PreparedRound = Omit<ChildFacts<FundingRoundTable>, 'investors'> & { investors: string[] };
export type PreparedLeader = ChildFacts<CompanyLeaderTable>;
export type PreparedCompetitor = ChildFacts<CompanyCompetitorTable>;
export type PreparedAcquisition = ChildFacts<CompanyAcquisitionTable>;
export type PreparedRelation = ChildFacts<CompanyRelationTable>;
export type PreparedArticle = Omit<ChildFacts<CompanyArticleTable>, 'kind'> & { kind: 'news' | 'press_release' };
export type PreparedHighlight = ChildFacts<CompanyHighlightTable>;

export interface PreparedCompany {
  facts: CompanyFacts;
  /** Normalized domains, primary first. */
  domains: string[];
  /** Display name and aliases with their keys. */
  names: { name: string; normalized_name: string; kind: 'name' | 'alias' }[];
  externalIds: { kind: string; value: string }[];
  rounds: PreparedRound[];
  leaders: PreparedLeader[];
  competitors: PreparedCompetitor[];
  acquisitions: PreparedAcquisition[];
  relations: PreparedRelation[];
  articles: PreparedArticle[];
  highlights: PreparedHighlight[];
  /**
   * Set by importers of registries (many companies share a name there): matched by name alone,
   * this report joins a stored company only in the same place, its postcode or town (matching.ts).
   */
  nameMatchNeedsPlace?: boolean;
}

const RELATIONS: readonly RelationInput['relation'][] = ['parent', 'subsidiary', 'acquired'];

/** A CompanyInput that cannot be stored; the message says why (importers report it per row). */
export class CompanyInputError extends Error {}

/** Whitespace other than single plain spaces: only then is there anything to collapse. */
const ODD_WHITESPACE = /\s(?<! )|\s{2}/;
const text = (v: unknown, max = 2000): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string' && typeof v !== 'number') throw new CompanyInputError(`expected text, got ${typeof v}`);
  let s = String(v);
  // Testing first is half the cost of a replace that changes nothing (most values of an import).
  if (ODD_WHITESPACE.test(s)) s = s.replace(/\s+/g, ' ');
  s = s.trim();
  if (!s) return null;
  return s.length > max ? s.slice(0, max) : s;
};
const longText = (v: unknown) => text(v, 20000);
const lower = (v: unknown) => text(v)?.toLowerCase() ?? null;

function integer(v: unknown, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(String(v).replace(/[,_\s]/g, ''));
  if (!Number.isFinite(n) || n < min || n > max) throw new CompanyInputError(`${field} must be a whole number from ${min} to ${max}`);
  return Math.round(n);
}

function money(v: unknown, field: string): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : parseMoney(String(v));
  if (n === null || !Number.isFinite(n) || n < 0) throw new CompanyInputError(`${field} is not an amount: ${JSON.stringify(v)}`);
  return n;
}

/** Epoch milliseconds from an ISO date/timestamp, a year, or epoch ms; null when absent. */
export function parseDate(v: unknown, field = 'date'): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') {
    if (v >= 1000 && v <= 9999) return Date.UTC(v, 0, 1);
    if (Number.isFinite(v)) return Math.round(v);
  }
  const s = String(v).trim();
  if (/^\d{4}$/.test(s)) return Date.UTC(Number(s), 0, 1);
  if (/^\d{4}-\d{2}$/.test(s)) return Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, 1);
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : Date.parse(s);
  if (Number.isNaN(ms)) throw new CompanyInputError(`${field} is not a date: ${JSON.stringify(v)}`);
  return ms;
}

function list<T>(v: T[] | null | undefined, field: string): T[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new CompanyInputError(`${field} must be an array`);
  return v;
}

/** A URL without its scheme (the wire form of prof URLs): "https://www.x.com/a/" → "www.x.com/a". */
export function withoutScheme(url: string | null): string | null {
  if (!url) return null;
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '') || null;
}

/** A URL with a scheme (https when none was given). */
export function withScheme(url: string | null): string | null {
  if (!url) return null;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
}

function geo(v: unknown): string | null {
  const s = text(v);
  if (!s) return null;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(s);
  if (!m) throw new CompanyInputError(`location.geo must be "lat,lon", got ${JSON.stringify(s)}`);
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new CompanyInputError('location.geo is out of range');
  return `${m[1]},${m[2]}`;
}

function put<K extends keyof CompanyFacts>(facts: CompanyFacts, key: K, value: CompanyFacts[K] | null | undefined): void {
  if (value !== null && value !== undefined) facts[key] = value;
}

/** Adds a domain's normalized form to `domains` once; a value that is no domain is an error when `strict`. */
function addDomain(domains: string[], raw: unknown, field: string, strict: boolean): void {
  const s = text(raw);
  if (!s) return;
  const d = normalizeDomain(s);
  if (!d) {
    if (strict) throw new CompanyInputError(`${field} is not a domain: ${JSON.stringify(s)}`);
    return;
  }
  if (!domains.includes(d)) domains.push(d);
}

/** Validates and normalizes one CompanyInput. Throws CompanyInputError with the reason. */
export function prepareCompany(input: CompanyInput): PreparedCompany {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new CompanyInputError('a company must be a JSON object');
  const facts: CompanyFacts = {};

  const domains: string[] = [];
  addDomain(domains, input.domain, 'domain', true);
  addDomain(domains, input.website, 'website', false);
  for (const d of list(input.domains, 'domains')) addDomain(domains, d, 'domains', true);
  if (domains[0]) facts.domain = domains[0];
  const website = text(input.website);
  put(facts, 'website', website ? withScheme(website) : domains[0] ? `https://${domains[0]}` : null);

  const names: PreparedCompany['names'] = [];
  const name = text(input.name, 500);
  if (name) {
    const key = normalizeCompanyName(name);
    if (!key) throw new CompanyInputError(`name has no letters or digits: ${JSON.stringify(name)}`);
    facts.name = name;
    facts.normalized_name = key;
    names.push({ name, normalized_name: key, kind: 'name' });
  }
  for (const alias of list(input.aliases, 'aliases')) {
    const a = text(alias, 500);
    const key = a ? normalizeCompanyName(a) : '';
    if (a && key && !names.some((n) => n.normalized_name === key)) names.push({ name: a, normalized_name: key, kind: 'alias' });
  }

  const externalIds: PreparedCompany['externalIds'] = [];
  if (input.external_ids !== null && input.external_ids !== undefined) {
    if (typeof input.external_ids !== 'object' || Array.isArray(input.external_ids))
      throw new CompanyInputError('external_ids must be an object');
    for (const [kind, value] of Object.entries(input.external_ids)) {
      const v = text(value, 300);
      if (v) externalIds.push({ kind: kind.toLowerCase(), value: v });
    }
  }

  put(facts, 'short_name', text(input.short_name, 200));
  put(facts, 'description', longText(input.description));
  const industry = lower(input.industry);
  if (industry) {
    facts.industry = industry;
    put(facts, 'industry_id', industryIdFor(industry));
  }
  const sectors = list(input.sectors, 'sectors')
    .map((s) => text(s, 200))
    .filter((s): s is string => !!s);
  if (sectors.length) facts.sectors = JSON.stringify(sectors);
  const employees = integer(input.employee_count, 'employee_count', 0, 10_000_000);
  put(facts, 'employee_count', employees);
  if (input.size_label !== null && input.size_label !== undefined && input.size_label !== '') {
    const label = normalizeSizeLabel(String(input.size_label));
    if (!label) throw new CompanyInputError(`size_label is not a size range: ${JSON.stringify(input.size_label)}`);
    facts.size_label = label;
  } else put(facts, 'size_label', sizeLabelForCount(employees));
  put(facts, 'employee_growth', text(input.employee_growth, 200));
  put(facts, 'founded_year', integer(input.founded_year, 'founded_year', 1000, new Date().getUTCFullYear() + 1));
  if (input.company_type) {
    const type = normalizeCompanyType(String(input.company_type));
    if (!type)
      throw new CompanyInputError(
        `company_type is not one of private, public, public_subsidiary, nonprofit, educational, government: ${JSON.stringify(input.company_type)}`,
      );
    facts.company_type = type;
  }
  put(facts, 'status', text(input.status, 100));
  put(facts, 'ownership', text(input.ownership, 200));
  put(facts, 'phone', text(input.phone, 100));
  put(facts, 'followers', integer(input.followers, 'followers'));
  put(facts, 'revenue', money(input.revenue, 'revenue'));
  put(facts, 'total_funding', money(input.total_funding, 'total_funding'));
  const stack = Array.isArray(input.technology_stack)
    ? input.technology_stack
        .map((s) => text(s, 200))
        .filter(Boolean)
        .join(', ')
    : text(input.technology_stack, 5000);
  put(facts, 'technology_stack', stack || null);

  if (input.location !== null && input.location !== undefined) {
    const l = input.location;
    if (typeof l !== 'object' || Array.isArray(l)) throw new CompanyInputError('location must be an object');
    const country = lookupCountry(l.country);
    put(facts, 'locality', lower(l.locality));
    put(facts, 'region', lower(l.region));
    put(facts, 'metro', lower(l.metro));
    put(facts, 'country', country?.name ?? lower(l.country));
    put(facts, 'country_code', country?.code ?? null);
    put(facts, 'continent', lower(l.continent) ?? country?.continent ?? null);
    put(facts, 'street_address', lower(l.street_address));
    put(facts, 'address_line_2', lower(l.address_line_2));
    put(facts, 'postal_code', lower(l.postal_code));
    put(facts, 'geo', geo(l.geo));
    const oneLine = lower(l.name) ?? ([facts.locality, facts.region, facts.country].filter(Boolean).join(', ') || null);
    put(facts, 'location_name', oneLine);
  }

  put(facts, 'prof_url', withoutScheme(text(input.prof_url, 500)));
  put(facts, 'prof_id', text(input.prof_id, 200));
  put(facts, 'social_a_url', text(input.social_a_url, 500));
  put(facts, 'social_b_url', text(input.social_b_url, 500));
  const handle = text(input.social_b_handle, 200)?.replace(/^@/, '') ?? handleFromUrl(facts.social_b_url ?? null);
  put(facts, 'social_b_handle', handle);
  put(facts, 'code_host_url', text(input.code_host_url, 500));
  if (facts.prof_id) externalIds.push({ kind: 'prof_id', value: facts.prof_id });

  const rounds = list(input.funding_rounds, 'funding_rounds').map((r, i): PreparedRound => {
    if (!r || typeof r !== 'object') throw new CompanyInputError(`funding_rounds[${i}] must be an object`);
    const round = text(r.round, 200);
    const announced = parseDate(r.date, `funding_rounds[${i}].date`);
    const investors = list(r.investors, `funding_rounds[${i}].investors`)
      .map((s) => text(s, 300))
      .filter((s): s is string => !!s);
    const ref = text(r.ref, 300) ?? `${round ?? ''}|${announced === null ? '' : new Date(announced).toISOString().slice(0, 10)}`;
    if (!round && announced === null && r.amount === undefined)
      throw new CompanyInputError(`funding_rounds[${i}] has no round, date or amount`);
    return {
      round,
      announced_at: announced,
      amount: money(r.amount, `funding_rounds[${i}].amount`),
      currency: text(r.currency, 10)?.toUpperCase() ?? null,
      investors,
      source_ref: ref,
    };
  });

  const leaders = list(input.leadership, 'leadership').map((p, i): PreparedLeader => {
    const role = lower(p?.role)?.replace(/[^a-z0-9_]+/g, '_');
    if (!role) throw new CompanyInputError(`leadership[${i}].role is required`);
    return {
      role,
      first_name: text(p.first_name, 200),
      last_name: text(p.last_name, 200),
      designation: text(p.designation, 300),
      prof_url: withScheme(text(p.prof_url, 500)),
      social_b_url: withScheme(text(p.social_b_url, 500)),
    };
  });

  const competitors = list(input.competitors, 'competitors').map((c, i): PreparedCompetitor => {
    const cname = text(c?.name, 500);
    if (!cname) throw new CompanyInputError(`competitors[${i}].name is required`);
    const hq = c.headquarters;
    return {
      name: cname,
      normalized_name: normalizeCompanyName(cname),
      revenue: text(c.revenue, 100),
      employees: text(c.employees, 100),
      total_funding: text(c.total_funding, 100),
      headquarters: hq
        ? JSON.stringify({ city: text(hq.city), state: text(hq.state), country: text(hq.country), fullAddress: text(hq.full_address) })
        : null,
      founded_at: parseDate(c.founded, `competitors[${i}].founded`),
      ownership: text(c.ownership, 200),
      website: withScheme(text(c.website, 500)),
    };
  });

  const acquisitions = list(input.acquisitions, 'acquisitions').map((a, i): PreparedAcquisition => {
    const aname = text(a?.company_name, 500);
    if (!aname) throw new CompanyInputError(`acquisitions[${i}].company_name is required`);
    return {
      company_name: aname,
      normalized_name: normalizeCompanyName(aname),
      acquired_at: parseDate(a.date, `acquisitions[${i}].date`),
      description: longText(a.description),
      source_url: text(a.source_url, 1000),
    };
  });

  const relations = list(input.relations, 'relations').map((r, i): PreparedRelation => {
    const rname = text(r?.company_name, 500);
    if (!rname) throw new CompanyInputError(`relations[${i}].company_name is required`);
    if (!RELATIONS.includes(r.relation)) throw new CompanyInputError(`relations[${i}].relation must be one of ${RELATIONS.join(', ')}`);
    const qid = text(r.wikidata_id, 20);
    if (qid !== null && !/^Q\d+$/.test(qid)) throw new CompanyInputError(`relations[${i}].wikidata_id is a Wikidata item id (Q…)`);
    return {
      relation: r.relation,
      company_name: rname,
      normalized_name: normalizeCompanyName(rname),
      wikidata_id: qid,
      since: parseDate(r.since, `relations[${i}].since`),
    };
  });

  const articles: PreparedArticle[] = [];
  for (const [kind, field] of [
    ['news', 'news'],
    ['press_release', 'press_releases'],
  ] as const) {
    list(input[field], field).forEach((a, i) => articles.push(prepareArticle(a, kind, `${field}[${i}]`)));
  }

  const highlights = list(input.key_highlights, 'key_highlights').map((h, i): PreparedHighlight => {
    const t = text(h?.text, 5000);
    if (!t) throw new CompanyInputError(`key_highlights[${i}].text is required`);
    return {
      type: text(h.type, 100),
      text: t,
      publisher: text(h.source, 300),
      highlighted_at: parseDate(h.date, `key_highlights[${i}].date`),
      src: text(h.src, 1000),
    };
  });

  return { facts, domains, names, externalIds, rounds, leaders, competitors, acquisitions, relations, articles, highlights };
}

export function prepareArticle(a: ArticleInput, kind: 'news' | 'press_release', field: string = kind): PreparedArticle {
  const title = text(a?.title, 1000);
  if (!title) throw new CompanyInputError(`${field}.title is required`);
  const url = text(a.url, 2000);
  return {
    kind,
    title,
    publisher: text(a.source, 300),
    published_at: parseDate(a.date, `${field}.date`),
    url,
    item_key: text(a.guid, 1000) ?? url ?? title.toLowerCase(),
  };
}

function handleFromUrl(url: string | null): string | null {
  if (!url) return null;
  const m = /^(?:[a-z]+:\/\/)?[^/]+\/@?([A-Za-z0-9_.-]+)\/?$/i.exec(url);
  return m ? m[1] : null;
}
