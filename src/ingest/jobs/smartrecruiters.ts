// SmartRecruiters Posting API: GET /v1/companies/{id}/postings?limit=100&offset=N, then each
// posting's detail (GET /v1/companies/{id}/postings/{postingId}) for the job ad text.
import { parseInstant, trimSlash, type JobConnector, type SourceListing } from './types.ts';
import { Type } from '@sinclair/typebox';
import { readJsonPayload } from './shape.ts';

interface SmartPosting {
  id: string;
  name: string;
  company?: { identifier?: string; name?: string };
  releasedDate?: string;
  location?: { city?: string; region?: string; country?: string; remote?: boolean; fullLocation?: string };
  typeOfEmployment?: { id?: string; label?: string };
  experienceLevel?: { id?: string; label?: string };
  language?: { code?: string };
  postingUrl?: string;
  applyUrl?: string;
  ref?: string;
  jobAd?: { sections?: Record<string, { title?: string; text?: string } | undefined> };
}

interface SmartPage {
  offset: number;
  limit: number;
  totalFound: number;
  content: SmartPosting[];
}

const PAGE_SIZE = 100;
const MAX_PAGES = 200;

const SmartPostingShape = Type.Object({ id: Type.String(), name: Type.String() });
/** A page of the Posting API's list: the fields that tell it apart. */
const SmartPageShape = Type.Object({ content: Type.Array(SmartPostingShape), totalFound: Type.Optional(Type.Number()) });
const PAGE_EXPECTED = 'a page of postings: {"content": [{"id": text, "name": …}, …], "totalFound": number}';

function toListing(p: SmartPosting, board: string): SourceListing {
  const loc = p.location ?? {};
  const location = loc.fullLocation ?? [loc.city, loc.region, loc.country?.toUpperCase()].filter(Boolean).join(', ');
  const sections = p.jobAd?.sections ?? {};
  const html = ['companyDescription', 'jobDescription', 'qualifications', 'additionalInformation']
    .map((k) => sections[k])
    .filter((s) => s?.text)
    .map((s) => `<h3>${s!.title ?? ''}</h3>${s!.text}`)
    .join('\n');
  const identifier = p.company?.identifier ?? board;
  return {
    sourceId: p.id,
    title: p.name.trim(),
    location,
    remote: typeof loc.remote === 'boolean' ? loc.remote : null,
    employmentTypes: [p.typeOfEmployment?.label, p.typeOfEmployment?.id].filter((t): t is string => !!t),
    publishedAt: parseInstant(p.releasedDate),
    descriptionHtml: html,
    applyUrl: p.applyUrl ?? p.postingUrl ?? `https://jobs.smartrecruiters.com/${identifier}/${p.id}`,
    language: p.language?.code ?? null,
    experience: p.experienceLevel?.id ?? p.experienceLevel?.label ?? null,
    countryCode: loc.country ? loc.country.toUpperCase() : null,
    company: p.company?.name ? { name: p.company.name } : null,
  };
}

export const smartrecruiters: JobConnector = {
  source: 'smartrecruiters',
  defaultBaseUrl: 'https://api.smartrecruiters.com',
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl);
    const company = encodeURIComponent(ctx.board);
    const postings: SmartPosting[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = readJsonPayload(
        'SmartRecruiters',
        await http.getText(`${base}/v1/companies/${company}/postings?limit=${PAGE_SIZE}&offset=${page * PAGE_SIZE}`),
        SmartPageShape,
        PAGE_EXPECTED,
      ) as SmartPage;
      postings.push(...body.content);
      if (!body.content.length || postings.length >= body.totalFound) break;
    }
    const detailed = await http.mapBounded(postings, async (p) => {
      const detail = await http.getText(`${base}/v1/companies/${company}/postings/${encodeURIComponent(p.id)}`).catch(() => null);
      return detail ? { ...p, ...(JSON.parse(detail) as SmartPosting) } : p;
    });
    return detailed.map((p) => toListing(p, ctx.board));
  },
  parsePayload(payload, ctx) {
    const body = readJsonPayload('SmartRecruiters', payload, Type.Union([SmartPageShape, Type.Array(SmartPostingShape)]), PAGE_EXPECTED) as
      SmartPage | SmartPosting[];
    return (Array.isArray(body) ? body : body.content).map((p) => toListing(p, ctx.board));
  },
};
