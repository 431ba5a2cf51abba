// Lever Postings API: GET /v0/postings/{company}?mode=json
import { parseInstant, trimSlash, type JobConnector, type SourceListing } from './types.ts';
import { Type } from '@sinclair/typebox';
import { readJsonPayload } from './shape.ts';
import { boardPageUrl, companyOfBoard, pageTitle } from './board-names.ts';

interface LeverPosting {
  id: string;
  text: string;
  createdAt?: number;
  categories?: { commitment?: string; location?: string; allLocations?: string[]; team?: string; department?: string; level?: string };
  description?: string;
  descriptionPlain?: string;
  lists?: { text: string; content: string }[];
  additional?: string;
  hostedUrl: string;
  applyUrl?: string;
  workplaceType?: 'remote' | 'hybrid' | 'on-site' | 'onsite' | 'unspecified';
  country?: string | null;
  salaryRange?: { min?: number; max?: number; currency?: string; interval?: string } | null;
  /** The employer's own words on pay; read as text when there is no salaryRange. */
  salaryDescription?: string;
}

const LeverPostingShape = Type.Object({ id: Type.String(), text: Type.String() });
/** The Postings API's answer: a list (mode=json), or the same list under "data". */
const LeverBoard = Type.Union([Type.Array(LeverPostingShape), Type.Object({ data: Type.Array(LeverPostingShape) })]);

function toListing(p: LeverPosting): SourceListing {
  const locations = p.categories?.allLocations?.length ? p.categories.allLocations : p.categories?.location ? [p.categories.location] : [];
  const html = [
    p.description ?? '',
    ...(p.lists ?? []).map((l) => `<h3>${l.text}</h3><ul>${l.content}</ul>`),
    p.additional ?? '',
    p.salaryDescription ?? '',
  ].join('\n');
  return {
    sourceId: p.id,
    title: p.text.trim(),
    location: locations.join('; '),
    remote:
      p.workplaceType === 'remote'
        ? true
        : p.workplaceType === 'on-site' || p.workplaceType === 'onsite' || p.workplaceType === 'hybrid'
          ? false
          : null,
    employmentTypes: p.categories?.commitment ? [p.categories.commitment] : [],
    publishedAt: parseInstant(p.createdAt),
    descriptionHtml: html,
    applyUrl: p.applyUrl ?? p.hostedUrl,
    salary:
      p.salaryRange && (p.salaryRange.min || p.salaryRange.max)
        ? { min: p.salaryRange.min ?? null, max: p.salaryRange.max ?? null, currency: p.salaryRange.currency ?? null }
        : null,
    experience: p.categories?.level ?? null,
    countryCode: p.country ?? null,
  };
}

/** Lever's API hosts and the hosts of their boards' pages. */
const LEVER_PAGES: Record<string, string> = {
  'https://api.lever.co': 'https://jobs.lever.co',
  'https://api.eu.lever.co': 'https://jobs.eu.lever.co',
};

export const lever: JobConnector = {
  source: 'lever',
  defaultBaseUrl: 'https://api.lever.co',
  // The postings name no company; the board's page title does (docs/jobs.md, "Which company a board is").
  namesBoardWhenFetched: true,
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl);
    const page = boardPageUrl(ctx, LEVER_PAGES, this.defaultBaseUrl);
    const [payload, company] = await Promise.all([
      http.getText(`${base}/v0/postings/${encodeURIComponent(ctx.board)}?mode=json`),
      companyOfBoard(http, ctx, 'lever', page, (html) => {
        const name = pageTitle(html);
        return name ? { name } : undefined;
      }),
    ]);
    const listings = this.parsePayload(payload, ctx);
    if (company) for (const l of listings) l.company ??= company;
    return listings;
  },
  parsePayload(payload) {
    const body = readJsonPayload('Lever', payload, LeverBoard, 'a list of postings [{"id": text, "text": …}, …]');
    return ((Array.isArray(body) ? body : body.data) as LeverPosting[]).map(toListing);
  },
};
