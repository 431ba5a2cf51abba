// Competitors of a company from the company store: first the companies a source named as its
// competitors, then its peers: companies of the same industry in the same or an adjacent size band,
// those of the same market (country) first, ranked by how much they share. Every competitor carries
// the reasons it was chosen. A company without an industry has no peers (only named competitors).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SIZE_LABELS, sizeLabelForCount } from './normalize.ts';
import type { CompanyRow } from './tables.ts';

/** One competitor as served. */
export interface Competitor {
  name: string;
  domain: string | null;
  website: string | null;
  industry: string | null;
  employee_count: number | null;
  size_label: string | null;
  country_code: string | null;
  founded_year: number | null;
  description: string | null;
  /** Why it is a competitor ("same industry: …", "same market: US", "named as a competitor by …"). */
  reasons: string[];
}

/** Peers read per query at most: the ranking runs over these. */
const PEER_READ = 200;

type PeerRow = Pick<
  CompanyRow,
  | 'id'
  | 'name'
  | 'domain'
  | 'website'
  | 'industry'
  | 'employee_count'
  | 'size_label'
  | 'country_code'
  | 'founded_year'
  | 'description'
  | 'sectors'
>;

const PEER_COLUMNS = [
  'id',
  'name',
  'domain',
  'website',
  'industry',
  'employee_count',
  'size_label',
  'country_code',
  'founded_year',
  'description',
  'sectors',
] as const;

function sectorsOf(json: string | null): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string').map((s) => s.toLowerCase()) : [];
  } catch {
    return [];
  }
}

/** The size band of a company, its index in SIZE_LABELS (-1 when unknown). */
function bandOf(c: Pick<CompanyRow, 'size_label' | 'employee_count'>): number {
  const label = c.size_label ?? sizeLabelForCount(c.employee_count);
  return SIZE_LABELS.findIndex((s) => s.label === label);
}

/** The reasons a peer competes with the company, and its score (higher first). */
export function rankPeer(company: CompanyRow, peer: PeerRow): { score: number; reasons: string[] } {
  const reasons = [`same industry: ${company.industry ?? peer.industry}`];
  let score = 3;
  if (company.country_code && peer.country_code === company.country_code) {
    score += 2;
    reasons.push(`same market: ${company.country_code}`);
  }
  const [own, theirs] = [bandOf(company), bandOf(peer)];
  if (own >= 0 && theirs === own) {
    score += 2;
    reasons.push(`same size band: ${SIZE_LABELS[own].label} employees`);
  } else if (own >= 0 && theirs >= 0) {
    score += 1;
    reasons.push(`adjacent size band: ${SIZE_LABELS[theirs].label} employees (theirs ${SIZE_LABELS[own].label})`);
  }
  const shared = sectorsOf(peer.sectors).filter((s) => sectorsOf(company.sectors).includes(s));
  if (shared.length) {
    score += Math.min(3, shared.length);
    reasons.push(`shared sectors: ${shared.join(', ')}`);
  }
  return { score, reasons };
}

/** How far apart two sizes are (log scale): the tie-break between peers of equal score. */
const sizeDistance = (a: number | null, b: number | null) => (a && b ? Math.abs(Math.log(a) - Math.log(b)) : Number.POSITIVE_INFINITY);

/** Up to `limit` competitors of a company: named ones first, then ranked peers. */
export async function competitorsOf(db: Kysely<Database>, company: CompanyRow, limit: number): Promise<Competitor[]> {
  const named = await db
    .selectFrom('company_competitors')
    .select(['name', 'website', 'employees', 'founded_at', 'source'])
    .where('company_id', '=', company.id)
    .orderBy('id')
    .limit(limit)
    .execute();
  const out: Competitor[] = named.map((c) => ({
    name: c.name,
    domain: null,
    website: c.website,
    industry: null,
    employee_count: /^\d+$/.test(c.employees ?? '') ? Number(c.employees) : null,
    size_label: null,
    country_code: null,
    founded_year: c.founded_at === null ? null : new Date(Number(c.founded_at)).getUTCFullYear(),
    description: null,
    reasons: [`named as a competitor by ${c.source}`],
  }));
  const namedKeys = new Set(named.map((c) => c.name.toLowerCase()));
  const band = bandOf(company);
  if (company.industry_id === null || out.length >= limit) return out;

  // The same and the adjacent size bands (any size when the company's is unknown).
  const labels = band < 0 ? null : SIZE_LABELS.slice(Math.max(0, band - 1), band + 2).map((s) => s.label);
  const peers = (market: 'same' | 'other') => {
    let q = db.selectFrom('companies').select(PEER_COLUMNS).where('industry_id', '=', company.industry_id).where('id', '!=', company.id);
    if (labels) q = q.where('size_label', 'in', labels);
    if (market === 'same') q = q.where('country_code', '=', company.country_code);
    else if (company.country_code)
      q = q.where((eb) => eb.or([eb('country_code', '!=', company.country_code), eb('country_code', 'is', null)]));
    return q.limit(PEER_READ).execute();
  };
  const rows: PeerRow[] = company.country_code ? await peers('same') : [];
  if (rows.length < limit) rows.push(...(await peers('other')));
  const ranked = rows
    .filter((p) => !namedKeys.has(p.name.toLowerCase()))
    .map((p) => ({ p, ...rankPeer(company, p) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        sizeDistance(a.p.employee_count, company.employee_count) - sizeDistance(b.p.employee_count, company.employee_count) ||
        a.p.name.localeCompare(b.p.name),
    );
  for (const { p, reasons } of ranked.slice(0, limit - out.length))
    out.push({
      name: p.name,
      domain: p.domain,
      website: p.website ?? (p.domain ? `https://${p.domain}` : null),
      industry: p.industry,
      employee_count: p.employee_count === null ? null : Number(p.employee_count),
      size_label: p.size_label ?? sizeLabelForCount(p.employee_count),
      country_code: p.country_code,
      founded_year: p.founded_year,
      description: p.description,
      reasons,
    });
  return out;
}
