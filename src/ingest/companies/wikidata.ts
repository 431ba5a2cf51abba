// Wikidata companies (CC0) through the Wikidata Query Service: the queries we send and how their
// answers become company records (docs/data/wikidata.md). A listing query per company class names
// the items with an official website; a detail query reads a page of them, one UNION branch per
// property so that a page's rows add up instead of multiplying.
import type { CompanyInput, LeaderInput, RelationInput } from '../../companies/input.ts';
import { normalizeDomain } from '../../companies/normalize.ts';
import { parsePersonName } from '../../people/names.ts';
import type { SourceRecord } from './runner.ts';
import type { SparqlResults, SparqlRow } from './sparql-results.ts';

const ENTITY = 'http://www.wikidata.org/entity/';

/** Company classes listed (instance of, P31): every item of one of them with an official website (P856) is read. */
export const COMPANY_CLASSES = [
  'Q4830453', // business
  'Q783794', // company
  'Q891723', // public company
  'Q6881511', // enterprise
  'Q5621421', // privately held company
  'Q658255', // subsidiary
  'Q219577', // holding company
  'Q167037', // corporation
  'Q18388277', // technology company
  'Q1058914', // software company
];

/** Classes that say a company is public or private (company_type). */
const PUBLIC_CLASS = 'Q891723';
const PRIVATE_CLASS = 'Q5621421';
/** The US dollar, the only revenue unit stored (revenue is in dollars). */
const US_DOLLAR = `${ENTITY}Q4917`;

/** The QID of an entity IRI ("http://www.wikidata.org/entity/Q95" → "Q95"), or null. */
export function qidOf(iri: string | undefined): string | null {
  if (!iri?.startsWith(ENTITY)) return null;
  const id = iri.slice(ENTITY.length);
  return /^Q\d+$/.test(id) ? id : null;
}

/** The items of one class with an official website. */
export function listingQuery(classQid: string): string {
  return `SELECT DISTINCT ?company WHERE { ?company wdt:P31 wd:${classQid} ; wdt:P856 ?website . }`;
}

/** The variables of the detail query; names shared with common WDQS examples (company, hqLabel, parentLabel …). */
const DETAIL_BRANCHES = [
  '?company wdt:P856 ?website .',
  '?company wdt:P4264 ?profId .',
  '?company wdt:P2002 ?twitter .',
  '?company wdt:P2013 ?facebook .',
  '?company wdt:P2037 ?github .',
  '?company wdt:P571 ?inception .',
  '?company wdt:P159 ?hq . OPTIONAL { ?hq wdt:P17 ?hqCountry . } OPTIONAL { ?hq wdt:P625 ?hqCoord . }',
  '?company wdt:P17 ?country .',
  '?company wdt:P625 ?coord .',
  '?company p:P1128 ?employeesStatement . ?employeesStatement ps:P1128 ?employees ; wikibase:rank ?employeesRank .' +
    ' FILTER(?employeesRank != wikibase:DeprecatedRank) OPTIONAL { ?employeesStatement pq:P585 ?employeesAt . }',
  '?company wdt:P452 ?industry .',
  '?company wdt:P1454 ?legalForm .',
  '?company wdt:P31 ?class .',
  '?company p:P414 ?listing . ?listing ps:P414 ?exchange . OPTIONAL { ?listing pq:P249 ?ticker . }',
  '?company p:P2139 ?revenueStatement . ?revenueStatement ps:P2139 ?revenue ; psv:P2139/wikibase:quantityUnit ?revenueUnit .' +
    ' ?revenueStatement wikibase:rank ?revenueRank . FILTER(?revenueRank != wikibase:DeprecatedRank)' +
    ' OPTIONAL { ?revenueStatement pq:P585 ?revenueAt . }',
  '?company p:P169 ?ceoStatement . ?ceoStatement ps:P169 ?ceo . FILTER NOT EXISTS { ?ceoStatement pq:P582 ?ceoEnded . }' +
    ' OPTIONAL { ?ceo wdt:P6634 ?ceoProfId . }',
  '?company wdt:P112 ?founder . OPTIONAL { ?founder wdt:P6634 ?founderProfId . }',
  '?company p:P488 ?chairStatement . ?chairStatement ps:P488 ?chair . FILTER NOT EXISTS { ?chairStatement pq:P582 ?chairEnded . }' +
    ' OPTIONAL { ?chair wdt:P6634 ?chairProfId . }',
  '?company wdt:P749 ?parent .',
  '?company wdt:P355 ?subsidiary .',
  '?company p:P1830 ?owned . ?owned ps:P1830 ?acquired ; pq:P580 ?acquiredAt .',
];

const DETAIL_VARS = [
  '?company ?companyLabel ?website ?profId ?twitter ?facebook ?github ?inception ?hq ?hqLabel ?hqCountry ?hqCountryLabel ?hqCoord',
  '?country ?countryLabel ?coord ?employees ?employeesAt ?industry ?industryLabel ?legalForm ?legalFormLabel ?class ?exchange ?exchangeLabel',
  '?ticker ?revenue ?revenueUnit ?revenueAt ?ceo ?ceoLabel ?ceoProfId ?founder ?founderLabel ?founderProfId ?chair ?chairLabel',
  '?chairProfId ?parent ?parentLabel ?subsidiary ?subsidiaryLabel ?acquired ?acquiredLabel ?acquiredAt',
].join(' ');

/** Everything we read about a page of items (their QIDs). */
export function detailQuery(qids: string[]): string {
  const values = qids.map((q) => `wd:${q}`).join(' ');
  const branches = DETAIL_BRANCHES.map((b) => `{ ${b} }`).join(' UNION ');
  return (
    `SELECT ${DETAIL_VARS} WHERE { VALUES ?company { ${values} } ${branches}` +
    ` SERVICE wikibase:label { bd:serviceParam wikibase:language "en,mul". } }`
  );
}

/** The QIDs a listing answer names; a row without an entity is an error (the answer is not the one asked for). */
export function listedQids(results: SparqlResults, where: string): string[] {
  if (!results.vars.includes('company')) throw new Error(`${where}: the answer has no ?company column`);
  return results.rows.map((row, i) => {
    const qid = qidOf(row.company?.value);
    if (!qid) throw new Error(`${where}: row ${i + 1} names no Wikidata item: ${JSON.stringify(row.company?.value ?? null)}`);
    return qid;
  });
}

/** Every distinct value of each variable, per item, in the order first seen. */
type Facts = Map<string, string[]>;

function add(facts: Facts, name: string, value: string): void {
  const list = facts.get(name);
  if (!list) facts.set(name, [value]);
  else if (!list.includes(value)) list.push(value);
}

/**
 * The label of `name` ("ceoLabel" of ?ceo), unless the value is no item (an "unknown value" is a
 * blank node or a genid IRI, whose "label" is an id) or the label is the service's stand-in for a
 * missing one (the QID itself).
 */
function label(row: SparqlRow, name: string): string | null {
  const of = row[name.replace(/Label$/, '')];
  if (of && !qidOf(of.value)) return null;
  const v = row[name]?.value?.trim();
  return v && !/^Q\d+$/.test(v) ? v : null;
}

/**
 * Collects a detail answer's rows per item. Values that belong together (an HQ with its country,
 * a person with their profile id, a revenue with its unit and date) are kept as one JSON value.
 */
function collect(results: SparqlResults, where: string): Map<string, Facts> {
  if (!results.vars.includes('company')) throw new Error(`${where}: the answer has no ?company column`);
  const items = new Map<string, Facts>();
  results.rows.forEach((row, i) => {
    const qid = qidOf(row.company?.value);
    if (!qid) throw new Error(`${where}: row ${i + 1} names no Wikidata item`);
    let facts = items.get(qid);
    if (!facts) items.set(qid, (facts = new Map()));
    const name = label(row, 'companyLabel');
    if (name) add(facts, 'name', name);
    for (const v of ['website', 'profId', 'twitter', 'facebook', 'github', 'inception'] as const)
      if (row[v]) add(facts, v, row[v].value.trim());
    const hq = label(row, 'hqLabel');
    if (hq || row.hqCountryLabel || row.hqCoord)
      add(facts, 'hq', JSON.stringify([hq, label(row, 'hqCountryLabel'), row.hqCoord?.value ?? null]));
    const country = label(row, 'countryLabel');
    if (country) add(facts, 'country', country);
    if (row.coord) add(facts, 'coord', row.coord.value);
    if (row.employees) add(facts, 'employees', JSON.stringify([row.employees.value, row.employeesAt?.value ?? null]));
    for (const v of ['industryLabel', 'legalFormLabel', 'parentLabel'] as const) {
      const l = label(row, v);
      if (l) add(facts, v, l);
    }
    const cls = qidOf(row.class?.value);
    if (cls) add(facts, 'class', cls);
    if (row.ticker || row.exchange) add(facts, 'listing', JSON.stringify([label(row, 'exchangeLabel'), row.ticker?.value ?? null]));
    if (row.revenue)
      add(facts, 'revenue', JSON.stringify([row.revenue.value, row.revenueUnit?.value ?? null, row.revenueAt?.value ?? null]));
    for (const role of ['ceo', 'founder', 'chair'] as const) {
      const person = label(row, `${role}Label`);
      if (person) add(facts, role, JSON.stringify([person, row[`${role}ProfId`]?.value ?? null]));
    }
    const acquired = label(row, 'acquiredLabel');
    if (acquired) add(facts, 'acquired', JSON.stringify([acquired, row.acquiredAt?.value ?? null, qidOf(row.acquired?.value) ?? null]));
    // Parent and subsidiaries with their items, for company_relations (the parent's label also names the ownership).
    for (const v of ['parent', 'subsidiary'] as const) {
      const l = label(row, `${v}Label`);
      if (l) add(facts, `${v}Item`, JSON.stringify([l, qidOf(row[v]?.value) ?? null]));
    }
  });
  return items;
}

/** "Point(lon lat)" (WKT, longitude first) on Earth → "lat,lon"; other globes and shapes → null. */
export function geoOfWkt(wkt: string | undefined | null): string | null {
  if (!wkt) return null;
  const m = /^\s*Point\(\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s+(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*\)\s*$/i.exec(wkt);
  if (!m) return null;
  const lon = Number(m[1]);
  const lat = Number(m[2]);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return `${+lat.toFixed(6)},${+lon.toFixed(6)}`;
}

/** The year of an xsd:dateTime ("1998-09-04T00:00:00Z"), when it is one we can store. */
function yearOf(value: string | undefined): number | null {
  const m = /^(-?)(\d{1,})-\d{2}-\d{2}/.exec(value ?? '');
  if (!m || m[1] === '-') return null;
  const year = Number(m[2]);
  return year >= 1000 && year <= new Date().getUTCFullYear() + 1 ? year : null;
}

const numberOf = (value: string | undefined): number | null => {
  if (value === undefined) return null;
  const n = Number(value.replace(/^\+/, ''));
  return Number.isFinite(n) ? n : null;
};

const parse = <T>(json: string): T => JSON.parse(json) as T;

function leader(role: string, designation: string, value: string): LeaderInput | null {
  const [full, profId] = parse<[string, string | null]>(value);
  const name = parsePersonName({ full });
  if (!name?.first && !name?.last) return null;
  return {
    role,
    designation,
    first_name: name.first,
    last_name: name.last,
    prof_url: profId ? `https://www.linkedin.com/in/${encodeURIComponent(profId)}` : null,
  };
}

/** One item's facts as a company record. */
function toCompany(qid: string, facts: Facts): CompanyInput {
  const all = (name: string) => facts.get(name) ?? [];
  const first = (name: string) => facts.get(name)?.[0] ?? null;
  const websites = all('website');
  const domains = websites
    .slice(1)
    .map((w) => normalizeDomain(w))
    .filter((d): d is string => !!d);
  const hq = all('hq').map((h) => parse<[string | null, string | null, string | null]>(h));
  const hqWithCountry = hq.find((h) => h[1]) ?? hq[0];
  const geo = [...hq.map((h) => h[2]), ...all('coord')].map(geoOfWkt).find(Boolean) ?? null;
  const country = hqWithCountry?.[1] ?? first('country');
  // Employees: the most recent dated count, else the largest undated one.
  const counts = all('employees')
    .map((e) => parse<[string, string | null]>(e))
    .map(([n, at]) => ({ n: numberOf(n), at }))
    .filter((e): e is { n: number; at: string | null } => e.n !== null && e.n >= 0 && e.n <= 10_000_000);
  const dated = counts.filter((e) => e.at).sort((a, b) => b.at!.localeCompare(a.at!))[0];
  const employees = dated ? dated.n : counts.length ? Math.max(...counts.map((e) => e.n)) : null;
  const founded = all('inception')
    .map(yearOf)
    .filter((y): y is number => y !== null);
  // Revenue: the most recent statement in US dollars (others are in currencies we do not convert).
  const revenue = all('revenue')
    .map((r) => parse<[string, string | null, string | null]>(r))
    .filter(([amount, unit]) => unit === US_DOLLAR && (numberOf(amount) ?? -1) >= 0)
    .sort((a, b) => (b[2] ?? '').localeCompare(a[2] ?? ''))[0];
  const listings = all('listing').map((l) => parse<[string | null, string | null]>(l));
  const ticker = listings.find(([, t]) => t);
  const classes = all('class');
  const companyType = classes.includes(PUBLIC_CLASS) || listings.length ? 'public' : classes.includes(PRIVATE_CLASS) ? 'private' : null;
  const parent = first('parentLabel');
  const twitter = first('twitter');
  // A role key is one person per company: the second founder is founder_2 (co-CEOs alike).
  const people = (role: string, designation: string, several: string) =>
    all(role)
      .map((p) => leader(role, all(role).length > 1 ? several : designation, p))
      .filter((l): l is LeaderInput => l !== null)
      .map((l, i) => (i ? { ...l, role: `${role}_${i + 1}` } : l));
  const leadership = [
    // "Co-CEO" is no title the role finder knows as a CEO: co-holders keep the plain title.
    ...people('ceo', 'Chief Executive Officer', 'Chief Executive Officer'),
    ...people('chair', 'Chairperson', 'Chairperson'),
    ...people('founder', 'Founder', 'Co-Founder'),
  ];
  const external: Record<string, string> = { wikidata: qid };
  if (ticker?.[1]) external.ticker = ticker[0] ? `${ticker[0]}:${ticker[1]}` : ticker[1];
  const profId = first('profId');
  const github = first('github');
  const facebook = first('facebook');
  return {
    name: first('name'),
    website: websites[0] ?? null,
    domains: domains.length ? domains : null,
    external_ids: external,
    industry: first('industryLabel'),
    sectors: all('industryLabel').length > 1 ? all('industryLabel') : null,
    employee_count: employees === null ? null : Math.round(employees),
    founded_year: founded.length ? Math.min(...founded) : null,
    company_type: companyType,
    ownership: parent ? `subsidiary of ${parent}` : first('legalFormLabel'),
    revenue: revenue ? Math.round(Number(revenue[0])) : null,
    location: hqWithCountry || country || geo ? { locality: hqWithCountry?.[0] ?? null, country, geo } : null,
    prof_url: profId ? `www.linkedin.com/company/${encodeURIComponent(profId)}` : null,
    social_a_url: facebook ? `https://www.facebook.com/${encodeURIComponent(facebook)}` : null,
    social_b_url: twitter ? `https://x.com/${encodeURIComponent(twitter)}` : null,
    social_b_handle: twitter,
    code_host_url: github ? `https://github.com/${encodeURIComponent(github)}` : null,
    leadership: leadership.length ? leadership : null,
    acquisitions: all('acquired').length
      ? all('acquired').map((a) => {
          const [company_name, at] = parse<[string, string | null]>(a);
          return { company_name, date: at && yearOf(at) ? at.slice(0, 10) : null };
        })
      : null,
    relations: relationsOf(facts),
  };
}

/** Parent (P749), subsidiaries (P355) and acquired companies (P1830 with its start time), each with its item. */
function relationsOf(facts: Facts): RelationInput[] | null {
  const all = (name: string) => facts.get(name) ?? [];
  const relations: RelationInput[] = [];
  for (const [fact, relation] of [
    ['parentItem', 'parent'],
    ['subsidiaryItem', 'subsidiary'],
  ] as const)
    for (const value of all(fact)) {
      const [company_name, wikidata_id] = parse<[string, string | null]>(value);
      relations.push({ relation, company_name, wikidata_id });
    }
  for (const value of all('acquired')) {
    const [company_name, at, wikidata_id] = parse<[string, string | null, string | null]>(value);
    relations.push({ relation: 'acquired', company_name, wikidata_id, since: at && yearOf(at) ? at.slice(0, 10) : null });
  }
  // One relation per other company: the statement that names its item wins over a label alone.
  const byName = new Map<string, RelationInput>();
  for (const r of relations) {
    const key = `${r.relation}\u0000${r.company_name.toLowerCase()}`;
    if (!byName.get(key)?.wikidata_id) byName.set(key, r);
  }
  return byName.size ? [...byName.values()] : null;
}

/**
 * The company records of a detail answer, in the order of `qids`. An item the answer does not
 * mention, or one without a name, is refused with the reason (its page is still stored whole).
 */
export function companiesOf(results: SparqlResults, qids: string[], where: string, line = 0): SourceRecord[] {
  const items = collect(results, where);
  return qids.map((qid, i): SourceRecord => {
    const facts = items.get(qid);
    if (!facts) return { line: line + i + 1, error: `${qid}: not in the answer (no longer a company with a website?)` };
    if (!facts.has('name')) return { line: line + i + 1, error: `${qid}: has no English label` };
    return { line: line + i + 1, input: toCompany(qid, facts) };
  });
}
