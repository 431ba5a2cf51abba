// schema.org JobPosting in JSON-LD on any careers page: every <script type="application/ld+json">
// block is read, @graph and arrays flattened, and each JobPosting mapped.
import { createHash } from 'node:crypto';
import { decodeEntities } from '../../jobs/normalize/html-text.ts';
import { parseInstant, type JobConnector, type SourceListing } from './types.ts';

type Json = Record<string, unknown>;

const SCRIPT = /<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi;

function text(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number') return String(v);
  if (v && typeof v === 'object' && 'name' in v) return text((v as Json).name);
  return null;
}

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

function isJobPosting(node: Json): boolean {
  return list(node['@type']).some(
    (t) => t === 'JobPosting' || t === 'http://schema.org/JobPosting' || t === 'https://schema.org/JobPosting',
  );
}

const ORGANIZATION_TYPES = new Set(['Organization', 'Corporation', 'LocalBusiness', 'EmploymentAgency', 'NGO']);

function isOrganization(node: Json): boolean {
  return list(node['@type']).some((t) => typeof t === 'string' && ORGANIZATION_TYPES.has(t.replace(/^https?:\/\/schema\.org\//, '')));
}

function collect(node: unknown, out: Json[], organizations: Json[] = []): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out, organizations);
  } else if (node && typeof node === 'object') {
    const obj = node as Json;
    if (isJobPosting(obj)) out.push(obj);
    else if (isOrganization(obj) && text(obj.name)) organizations.push(obj);
    if (obj['@graph']) collect(obj['@graph'], out, organizations);
    if (obj.itemListElement)
      collect(
        list(obj.itemListElement).map((i) => (i as Json)?.item ?? i),
        out,
        organizations,
      );
  }
}

/** The page's JobPosting nodes, and the organizations it describes (the employer when a posting names none). */
export function extractJobPostings(html: string, organizations: Json[] = []): Json[] {
  const out: Json[] = [];
  for (const match of html.matchAll(SCRIPT)) {
    const body = match[1].trim().replace(/^<!--|-->$/g, '');
    try {
      collect(JSON.parse(body), out, organizations);
    } catch {
      // Pages carry broken JSON-LD often enough; one bad block must not hide the others.
      try {
        collect(JSON.parse(decodeEntities(body)), out, organizations);
      } catch {
        /* skip */
      }
    }
  }
  return out;
}

function placeText(place: unknown): string {
  const p = place as Json | null;
  const address = (p?.address ?? p) as Json | string | null;
  if (!address) return '';
  if (typeof address === 'string') return address;
  return [text(address.addressLocality), text(address.addressRegion), text(address.addressCountry)].filter(Boolean).join(', ');
}

function countryCode(place: unknown): string | null {
  const address = ((place as Json | null)?.address ?? null) as Json | null;
  const c = text(address?.addressCountry);
  return c && /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : null;
}

const num = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null;

/**
 * `baseSalary` as schema.org allows it: a bare number (currency in `salaryCurrency`), a
 * MonetaryAmount whose `value` is a number, or one whose `value` is a QuantitativeValue with
 * `value` or `minValue`/`maxValue`.
 */
function salary(posting: Json): SourceListing['salary'] {
  const bare = num(posting.baseSalary);
  if (bare !== null) return { min: bare, max: bare, currency: text(posting.salaryCurrency) };
  const base = posting.baseSalary as Json | undefined;
  if (!base || typeof base !== 'object') return null;
  const value = (base.value ?? {}) as Json;
  const min = num(value.minValue) ?? num(value.value) ?? num(base.value);
  const max = num(value.maxValue) ?? num(value.value) ?? num(base.value);
  if (min === null && max === null) return null;
  return { min, max, currency: text(base.currency) ?? text(value.currency) ?? text(posting.salaryCurrency) };
}

export function toListing(posting: Json, pageUrl: string, pageOrganization?: Json): SourceListing {
  const title = text(posting.title) ?? text(posting.name) ?? '';
  const places = list(posting.jobLocation);
  const location = places.map(placeText).filter(Boolean).join('; ');
  const remote = list(posting.jobLocationType).some((t) => typeof t === 'string' && /telecommute/i.test(t)) || null;
  const identifier = posting.identifier as Json | string | undefined;
  const idValue = typeof identifier === 'object' && identifier ? text(identifier.value) : text(identifier);
  const url = text(posting.url) ?? pageUrl;
  const sourceId = idValue ?? (text(posting.url) ? url : createHash('sha1').update(`${title}\n${location}`).digest('hex').slice(0, 16));
  // A posting without its hiring organization is the page owner's, when the page says who that is.
  const hiring = posting.hiringOrganization as Json | string | undefined;
  const org = typeof hiring === 'string' ? { name: hiring } : (hiring ?? pageOrganization ?? null);
  const sameAs = list(org?.sameAs).filter((s): s is string => typeof s === 'string');
  const clearance = text(posting.securityClearanceRequirement);
  const description = (text(posting.description) ?? '') + (clearance ? `\n<p>Security clearance: ${clearance}</p>` : '');
  return {
    sourceId,
    title,
    location: location || (remote ? 'Remote' : ''),
    remote,
    employmentTypes: list(posting.employmentType).filter((t): t is string => typeof t === 'string'),
    publishedAt: parseInstant(posting.datePosted),
    descriptionHtml: description,
    applyUrl: url,
    language: text(posting.inLanguage),
    salary: salary(posting),
    experience: text((posting.experienceRequirements as Json | undefined)?.name ?? null) ?? null,
    countryCode: countryCode(places[0]),
    company:
      org && text(org.name)
        ? {
            name: text(org.name)!,
            website: text(org.url) ?? sameAs.find((s) => !/linkedin|twitter|x\.com|github/i.test(s)) ?? null,
            prof_url: sameAs.find((s) => /linkedin\.com\/company/i.test(s)) ?? null,
            social_b_url: sameAs.find((s) => /(twitter|x)\.com\//i.test(s)) ?? null,
            code_host_url: sameAs.find((s) => /github\.com\//i.test(s)) ?? null,
            logo_url: text(org.logo),
          }
        : null,
  };
}

export const jsonld: JobConnector = {
  source: 'jsonld',
  defaultBaseUrl: '',
  async fetchBoard(http, ctx) {
    // The board is the careers page URL itself; baseUrl, when given, replaces its origin.
    const url = ctx.baseUrl ? new URL(new URL(ctx.board).pathname + new URL(ctx.board).search, ctx.baseUrl).toString() : ctx.board;
    return this.parsePayload(await http.getText(url, 'text/html,application/xhtml+xml'), { ...ctx, board: url });
  },
  parsePayload(payload, ctx) {
    const now = Date.now();
    const organizations: Json[] = [];
    const postings = extractJobPostings(payload, organizations);
    return postings
      .filter((p) => {
        const validThrough = parseInstant(p.validThrough);
        return validThrough === null || validThrough > now;
      })
      .map((p) => toListing(p, ctx.board, organizations[0]));
  },
};
