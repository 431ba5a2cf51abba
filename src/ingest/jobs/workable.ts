// Workable widget API: GET /api/v1/widget/accounts/{subdomain}?details=true
import { parseInstant, trimSlash, type JobConnector, type SourceListing } from './types.ts';
import { Type } from '@sinclair/typebox';
import { readJsonPayload } from './shape.ts';

interface WorkableJob {
  title: string;
  shortcode: string;
  employment_type?: string;
  telecommuting?: boolean;
  url?: string;
  shortlink?: string;
  application_url?: string;
  published_on?: string;
  created_at?: string;
  country?: string;
  city?: string;
  state?: string;
  experience?: string;
  description?: string;
  locations?: { country?: string; countryCode?: string; city?: string; region?: string; hidden?: boolean }[];
}

function place(city?: string, region?: string, country?: string): string {
  return [city, region, country].filter((p) => p && p.trim()).join(', ');
}

const WorkableAccount = Type.Object({
  name: Type.Optional(Type.String()),
  jobs: Type.Array(Type.Object({ shortcode: Type.String(), title: Type.String() })),
});

function toListing(job: WorkableJob, companyName: string | undefined): SourceListing {
  const places = (job.locations ?? []).filter((l) => !l.hidden).map((l) => place(l.city, l.region, l.country));
  if (!places.length) places.push(place(job.city, job.state, job.country));
  return {
    sourceId: job.shortcode,
    title: job.title.trim(),
    location: places.filter(Boolean).join('; '),
    remote: typeof job.telecommuting === 'boolean' ? job.telecommuting : null,
    employmentTypes: job.employment_type ? [job.employment_type] : [],
    publishedAt: parseInstant(job.published_on) ?? parseInstant(job.created_at),
    descriptionHtml: job.description ?? '',
    applyUrl: job.application_url ?? job.url ?? job.shortlink ?? '',
    experience: job.experience ?? null,
    countryCode: job.locations?.[0]?.countryCode ?? null,
    company: companyName ? { name: companyName } : null,
  };
}

export const workable: JobConnector = {
  source: 'workable',
  defaultBaseUrl: 'https://apply.workable.com',
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl);
    return this.parsePayload(await http.getText(`${base}/api/v1/widget/accounts/${encodeURIComponent(ctx.board)}?details=true`), ctx);
  },
  parsePayload(payload) {
    const body = readJsonPayload(
      'Workable',
      payload,
      WorkableAccount,
      'an account\'s jobs: {"name": …, "jobs": [{"shortcode": text, "title": …}, …]}',
    );
    return (body.jobs as WorkableJob[]).map((j) => toListing(j, body.name));
  },
};
