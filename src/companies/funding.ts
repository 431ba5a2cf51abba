// Composes the company-funding result from the stored facts of one company.
import type { Selectable } from 'kysely';
import type { FundingResult } from '../contract/companies.ts';
import type {
  CompanyAcquisitionTable,
  CompanyArticleTable,
  CompanyCompetitorTable,
  CompanyHighlightTable,
  CompanyLeaderTable,
  CompanyRelationTable,
  CompanyRow,
  FundingRoundTable,
} from './tables.ts';
import { formatCurrency, formatMoneyShort } from './format.ts';
import { relationsOf } from './profile.ts';
import { JOB_INDUSTRIES } from '../lookups/data.ts';

export interface CompanyFactsBundle {
  rounds: Selectable<FundingRoundTable>[];
  leaders: Selectable<CompanyLeaderTable>[];
  competitors: Selectable<CompanyCompetitorTable>[];
  acquisitions: Selectable<CompanyAcquisitionTable>[];
  relations: Selectable<CompanyRelationTable>[];
  articles: Selectable<CompanyArticleTable>[];
  highlights: Selectable<CompanyHighlightTable>[];
}

/** Funding data is found when the company has at least one funding round or a stated total. */
export function hasFundingData(company: CompanyRow, rounds: unknown[]): boolean {
  return rounds.length > 0 || company.total_funding !== null;
}

/** How many news items and press releases the result carries (newest first). */
export const MAX_ARTICLES = 20;

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

/** "san francisco" → "San Francisco"; leaves mixed-case text alone. */
export function titleCase(s: string | null): string | null {
  if (!s) return s;
  if (s !== s.toLowerCase()) return s;
  return s.replace(/(^|[\s\-/(])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase());
}

const OWNERSHIP: Record<string, string> = {
  private: 'Private',
  public: 'Public',
  public_subsidiary: 'Public Subsidiary',
  nonprofit: 'Non-Profit',
  educational: 'Educational',
  government: 'Government',
};

function headquarters(c: CompanyRow): FundingResult['basicInfo']['headquarters'] {
  if (!c.locality && !c.region && !c.country && !c.street_address) return null;
  const cityLine = [titleCase(c.locality), [titleCase(c.region), c.postal_code?.toUpperCase()].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const fullAddress = [titleCase(c.street_address), titleCase(c.address_line_2), cityLine, titleCase(c.country)].filter(Boolean).join(', ');
  return { city: titleCase(c.locality), state: titleCase(c.region), country: titleCase(c.country), fullAddress: fullAddress || null };
}

/** Rounds newest first; undated rounds last. */
function sortRounds(rounds: Selectable<FundingRoundTable>[]) {
  return [...rounds].sort((a, b) => (b.announced_at ?? -Infinity) - (a.announced_at ?? -Infinity) || Number(b.id) - Number(a.id));
}

export function totalFundingOf(company: CompanyRow, rounds: Selectable<FundingRoundTable>[]): number | null {
  if (company.total_funding !== null) return company.total_funding;
  const amounts = rounds.map((r) => r.amount).filter((a): a is number => a !== null);
  return amounts.length ? amounts.reduce((s, a) => s + a, 0) : null;
}

const parseJsonArray = (s: string | null): string[] => {
  if (!s) return [];
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

export function composeFunding(c: CompanyRow, f: CompanyFactsBundle): FundingResult {
  const rounds = sortRounds(f.rounds);
  const totalFunding = totalFundingOf(c, rounds);
  const last = rounds[0];
  const leadership: FundingResult['leadership'] = { ceo: null };
  for (const l of f.leaders) {
    (leadership as Record<string, unknown>)[l.role] = {
      firstName: l.first_name,
      lastName: l.last_name,
      designation: l.designation,
      prof: l.prof_url,
      social_b: l.social_b_url,
    };
  }
  const industries = c.industry ? [titleCase(c.industry)!] : [];
  const mapped = c.industry_id ? JOB_INDUSTRIES.find((i) => i.id === c.industry_id)?.name : undefined;
  if (mapped && !industries.some((i) => i.toLowerCase() === mapped.toLowerCase())) industries.push(mapped);
  const social: FundingResult['socialMedia'] = [];
  const addSocial = (platform: string, url: string | null) => {
    if (url) social.push({ platform, url: /^[a-z]+:\/\//i.test(url) ? url : `https://${url}` });
  };
  addSocial('prof', c.prof_url);
  addSocial('social_a', c.social_a_url);
  addSocial('social_b', c.social_b_url);
  addSocial('code_host', c.code_host_url);
  const articles = (kind: string) =>
    f.articles
      .filter((a) => a.kind === kind)
      .slice(0, MAX_ARTICLES)
      .map((a) => ({ title: a.title, source: a.publisher, date: iso(a.published_at) }));

  const result: FundingResult = {
    basicInfo: {
      companyName: c.name,
      description: c.description,
      shortName: c.short_name,
      primaryDomain: c.domain,
      phone: c.phone,
      status: c.status,
      ownership: c.ownership ?? (c.company_type ? (OWNERSHIP[c.company_type] ?? null) : null),
      founded: c.founded_year === null ? null : String(c.founded_year),
      followers: c.followers,
      headquarters: headquarters(c),
    },
    financialInfo: {
      revenue: c.revenue,
      totalFunding,
      formattedRevenue: formatMoneyShort(c.revenue),
      formattedFunding: formatMoneyShort(totalFunding),
      lastFundingRound: last ? { round: last.round, date: iso(last.announced_at), amount: last.amount } : null,
    },
    fundingHistory: rounds.map((r) => ({
      round: r.round,
      date: iso(r.announced_at),
      amount: formatCurrency(r.amount, r.currency ?? 'USD'),
      investors: parseJsonArray(r.investors),
    })),
    companySize: { employees: c.employee_count, employeeRange: c.size_label, employeeGrowth: c.employee_growth },
    leadership,
    industryAndSectors: { industrySectors: parseJsonArray(c.sectors), industries, technologyStack: c.technology_stack },
    topCompetitors: f.competitors.map((x) => ({
      name: x.name,
      revenue: x.revenue,
      employees: x.employees,
      totalFunding: x.total_funding,
      headquarters: x.headquarters ? (JSON.parse(x.headquarters) as FundingResult['basicInfo']['headquarters']) : null,
      founded: iso(x.founded_at),
      ownership: x.ownership,
      website: x.website,
    })),
    acquisitions: [...f.acquisitions]
      .sort((a, b) => (b.acquired_at ?? -Infinity) - (a.acquired_at ?? -Infinity))
      .map((a) => ({ companyName: a.company_name, acquisitionDate: iso(a.acquired_at), description: a.description, source: a.source_url })),
    socialMedia: social,
    news: articles('news'),
    pressReleases: articles('press_release'),
    keyHighlights: [...f.highlights]
      .sort((a, b) => (b.highlighted_at ?? -Infinity) - (a.highlighted_at ?? -Infinity))
      .map((h) => ({ type: h.type, text: h.text, source: h.publisher, date: iso(h.highlighted_at), src: h.src })),
    summarySection: null,
    relations: relationsOf(f.relations),
  };
  result.summarySection = summarize(c, result, rounds);
  return result;
}

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const NUMBER = new Intl.NumberFormat('en-US');

/** A few plain sentences built only from the stored facts (a fact that is unknown is left out). */
export function summarize(c: CompanyRow, r: FundingResult, rounds: Selectable<FundingRoundTable>[]): string {
  const sentences: string[] = [];
  const kind = c.company_type ? `${OWNERSHIP[c.company_type]?.toLowerCase() ?? c.company_type} company` : 'company';
  const article = /^[aeiou]/i.test(kind) ? 'an' : 'a';
  let first = `${c.name} is ${article} ${kind}`;
  if (c.founded_year !== null) first += ` founded in ${c.founded_year}`;
  const hq = r.basicInfo.headquarters;
  const place = hq ? [hq.city, hq.state, hq.country].filter(Boolean).join(', ') : '';
  if (place) first += `, headquartered in ${place}`;
  sentences.push(`${first}.`);
  const industry = r.industryAndSectors.industries[0];
  const employees =
    c.employee_count !== null ? `about ${NUMBER.format(c.employee_count)} employees` : c.size_label ? `${c.size_label} employees` : '';
  if (industry && employees) sentences.push(`It operates in ${industry.toLowerCase()} with ${employees}.`);
  else if (industry) sentences.push(`It operates in ${industry.toLowerCase()}.`);
  else if (employees) sentences.push(`It has ${employees}.`);
  const total = r.financialInfo.formattedFunding;
  if (total) {
    let s = `It has raised ${total} in total funding`;
    if (rounds.length) s += ` across ${rounds.length} round${rounds.length === 1 ? '' : 's'}`;
    sentences.push(`${s}.`);
    const last = rounds[0];
    if (last && (last.round || last.amount !== null)) {
      let l = `The latest round was ${last.round ?? 'a funding round'}`;
      if (last.amount !== null) l += ` (${formatMoneyShort(last.amount)})`;
      if (last.announced_at !== null) l += ` in ${MONTH.format(new Date(Number(last.announced_at)))}`;
      const investors = parseJsonArray(last.investors);
      if (investors.length) l += `, with ${investors.length > 3 ? `${investors.slice(0, 3).join(', ')} and others` : listText(investors)}`;
      sentences.push(`${l}.`);
    }
  } else if (rounds.length) {
    sentences.push(`It has ${rounds.length} recorded funding round${rounds.length === 1 ? '' : 's'}.`);
  }
  if (r.financialInfo.formattedRevenue) sentences.push(`Its annual revenue is about ${r.financialInfo.formattedRevenue}.`);
  const ceo = r.leadership.ceo;
  const ceoName = ceo ? [ceo.firstName, ceo.lastName].filter(Boolean).join(' ') : '';
  if (ceoName) sentences.push(`${ceoName} is the ${ceo?.designation ?? 'CEO'}.`);
  if (r.acquisitions.length)
    sentences.push(`It has made ${r.acquisitions.length} recorded acquisition${r.acquisitions.length === 1 ? '' : 's'}.`);
  if (r.topCompetitors.length) sentences.push(`Competitors include ${listText(r.topCompetitors.slice(0, 3).map((x) => x.name!))}.`);
  return sentences.join(' ');
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
