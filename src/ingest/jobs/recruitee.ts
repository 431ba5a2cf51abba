// Recruitee careers site API: GET https://{company}.recruitee.com/api/offers/
import { parseInstant, trimSlash, type JobConnector, type SourceListing } from './types.ts';
import { Type } from '@sinclair/typebox';
import { readJsonPayload } from './shape.ts';

interface RecruiteeOffer {
  id: number;
  slug?: string;
  title: string;
  description?: string;
  requirements?: string;
  location?: string;
  city?: string;
  country?: string;
  country_code?: string;
  remote?: boolean;
  employment_type_code?: string;
  experience_code?: string;
  published_at?: string;
  created_at?: string;
  careers_url?: string;
  careers_apply_url?: string;
  company_name?: string;
  salary?: { min?: string | number | null; max?: string | number | null; currency?: string | null; period?: string } | null;
  locations?: { city?: string; country?: string; country_code?: string; state?: string }[];
}

const RecruiteeBoard = Type.Object({ offers: Type.Array(Type.Object({ id: Type.Number(), title: Type.String() })) });

function toListing(o: RecruiteeOffer): SourceListing {
  const places = (o.locations ?? []).map((l) => [l.city, l.state, l.country].filter(Boolean).join(', ')).filter(Boolean);
  const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
  const min = num(o.salary?.min);
  const max = num(o.salary?.max);
  return {
    sourceId: String(o.id),
    title: o.title.trim(),
    location: places.length ? places.join('; ') : (o.location ?? [o.city, o.country].filter(Boolean).join(', ')),
    remote: typeof o.remote === 'boolean' ? o.remote : null,
    employmentTypes: o.employment_type_code
      ? [
          o.employment_type_code
            .replace(/_/g, ' ')
            .replace(/^fulltime/, 'full time')
            .replace(/^parttime/, 'part time'),
        ]
      : [],
    publishedAt:
      parseInstant(o.published_at?.replace(' UTC', 'Z').replace(' ', 'T')) ??
      parseInstant(o.created_at?.replace(' UTC', 'Z').replace(' ', 'T')),
    descriptionHtml: [o.description ?? '', o.requirements ?? ''].join('\n'),
    applyUrl: o.careers_apply_url ?? o.careers_url ?? '',
    experience: o.experience_code ?? null,
    salary: min !== null || max !== null ? { min, max, currency: o.salary?.currency ?? null } : null,
    countryCode: o.country_code ?? o.locations?.[0]?.country_code ?? null,
    company: o.company_name ? { name: o.company_name } : null,
  };
}

export const recruitee: JobConnector = {
  source: 'recruitee',
  defaultBaseUrl: 'https://{board}.recruitee.com',
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl.replace('{board}', encodeURIComponent(ctx.board)));
    return this.parsePayload(await http.getText(`${base}/api/offers/`), ctx);
  },
  parsePayload(payload) {
    const body = readJsonPayload(
      'Recruitee',
      payload,
      RecruiteeBoard,
      'a careers site\'s offers: {"offers": [{"id": number, "title": …}, …]}',
    );
    return (body.offers as RecruiteeOffer[]).map(toListing);
  },
};
