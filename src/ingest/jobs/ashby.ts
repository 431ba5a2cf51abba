// Ashby Posting API: GET /posting-api/job-board/{board}?includeCompensation=true
import { parseInstant, trimSlash, type JobConnector, type SourceListing } from './types.ts';
import { Type } from '@sinclair/typebox';
import { readJsonPayload } from './shape.ts';
import { alpha2Code, countryCodeByName } from '../../lookups/countries.ts';
import { ashbyOrganization, boardPageUrl, companyOfBoard } from './board-names.ts';

interface SalaryComponent {
  compensationType?: string;
  interval?: string;
  currencyCode?: string | null;
  minValue?: number | null;
  maxValue?: number | null;
}

interface AshbyJob {
  /** Absent from the API documentation's own example; the job URL stands in then. */
  id?: string;
  title: string;
  location?: string;
  secondaryLocations?: { location?: string }[];
  employmentType?: string;
  publishedAt?: string;
  isListed?: boolean;
  isRemote?: boolean | null;
  workplaceType?: string | null;
  address?: { postalAddress?: { addressCountry?: string; addressRegion?: string; addressLocality?: string } } | null;
  jobUrl: string;
  applyUrl?: string;
  descriptionHtml?: string;
  descriptionPlain?: string;
  /** The employer's choice: false means the pay is not to be published, so we do not store it. */
  shouldDisplayCompensationOnJobPostings?: boolean;
  compensation?: {
    summaryComponents?: SalaryComponent[];
    compensationTiers?: { components?: SalaryComponent[] }[];
  } | null;
}

/** The posting API's job board: the fields that tell it apart (Greenhouse's "jobs" have numeric ids). */
const AshbyBoard = Type.Object({
  jobs: Type.Array(
    Type.Union([Type.Object({ id: Type.String(), title: Type.String() }), Type.Object({ jobUrl: Type.String(), title: Type.String() })]),
  ),
});

/** The salary component: the summary's, else the first tier's (boards with one pay zone list only tiers). */
function salaryComponent(job: AshbyJob): SalaryComponent | undefined {
  const isSalary = (c: SalaryComponent) => c.compensationType === 'Salary';
  const comp = job.compensation;
  return comp?.summaryComponents?.find(isSalary) ?? comp?.compensationTiers?.[0]?.components?.find(isSalary);
}

function toListing(job: AshbyJob): SourceListing {
  const places = [job.location, ...(job.secondaryLocations ?? []).map((l) => l.location)].filter((l): l is string => !!l);
  const salary = job.shouldDisplayCompensationOnJobPostings === false ? undefined : salaryComponent(job);
  const country = job.address?.postalAddress?.addressCountry?.trim();
  const remote = job.workplaceType ? job.workplaceType.toLowerCase() === 'remote' : (job.isRemote ?? null);
  return {
    sourceId: job.id ?? job.jobUrl,
    title: job.title.trim(),
    location: places.join('; '),
    remote,
    employmentTypes: job.employmentType ? [job.employmentType.replace(/([a-z])([A-Z])/g, '$1 $2')] : [],
    publishedAt: parseInstant(job.publishedAt),
    descriptionHtml: job.descriptionHtml ?? job.descriptionPlain ?? '',
    applyUrl: job.applyUrl ?? job.jobUrl,
    salary:
      salary && (salary.minValue || salary.maxValue)
        ? { min: salary.minValue ?? null, max: salary.maxValue ?? null, currency: salary.currencyCode ?? null }
        : null,
    // The posting's structured address names its country (by name or code): it comes before the location text.
    countryCode: country ? (alpha2Code(country) ?? countryCodeByName(country)) : null,
  };
}

/** Ashby's API host and the host of its boards' pages. */
const ASHBY_PAGES: Record<string, string> = { 'https://api.ashbyhq.com': 'https://jobs.ashbyhq.com' };

export const ashby: JobConnector = {
  source: 'ashby',
  defaultBaseUrl: 'https://api.ashbyhq.com',
  // The posting API names no company; the board's page embeds its organization (docs/jobs.md, "Which company a board is").
  namesBoardWhenFetched: true,
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl);
    const page = boardPageUrl(ctx, ASHBY_PAGES, this.defaultBaseUrl);
    const [payload, company] = await Promise.all([
      http.getText(`${base}/posting-api/job-board/${encodeURIComponent(ctx.board)}?includeCompensation=true`),
      companyOfBoard(http, ctx, 'ashby', page, ashbyOrganization),
    ]);
    const listings = this.parsePayload(payload, ctx);
    if (company) for (const l of listings) l.company ??= company;
    return listings;
  },
  parsePayload(payload) {
    const body = readJsonPayload('Ashby', payload, AshbyBoard, 'a job board: {"jobs": [{"id": text, "title": …}, …]}') as {
      jobs: AshbyJob[];
    };
    return body.jobs.filter((j) => j.isListed !== false).map(toListing);
  },
};
