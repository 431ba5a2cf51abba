// LeadMagic's v1 paths (docs/leadmagic-v1.md): a client written for LeadMagic's v1 API changes its
// base URL and key, nothing else. Each path is one of our operations (the same service calls,
// prices, per-minute limits and ledger rows) answered in the v1 shape (src/contract/v1.ts).
// Paths whose answers need data we do not have (ads) are absent.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Services } from '../../../services.ts';
import type { OperationContext } from '../../../operations/context.ts';
import { withScheme } from '../../../companies/input.ts';
import {
  toV1,
  V1_PLATFORMS,
  V1CompanyFundingResponse,
  V1CompanySearchResponse,
  V1CompetitorsResponse,
  V1TechnographicsResponse,
  V1CreditsResponse,
  V1EmailToProfileResponse,
  V1JobChangeResponse,
  V1PersonalEmailResponse,
  V1ProfileSearchResponse,
  V1EmailFinderResponse,
  V1EmailValidationResponse,
  V1EmployeeFinderResponse,
  V1JobsFinderBody,
  V1JobsFinderResponse,
  V1MobileFinderResponse,
  V1ProfileEmailResponse,
  V1RoleFinderResponse,
} from '../../../contract/v1.ts';
import { JobCountryList, IdNameList } from '../../../contract/lookups.ts';
import { OPERATIONS, spellingsOf, type OperationId } from '../../../operations/catalogue.ts';
import { routeOptions } from '../../route-options.ts';
import type { Answer } from '../../../operations/answer.ts';
import { creditsOf } from '../api/credits.ts';
import { validateEmail } from '../../../operations/email-validate.ts';
import { findEmail } from '../../../operations/email-finder.ts';
import { companyFunding } from '../../../operations/company-funding.ts';
import { companySearch } from '../../../operations/company-search.ts';
import { findJobs } from '../../../operations/jobs-finder.ts';
import { findRole } from '../../../operations/role-finder.ts';
import { findMobile } from '../../../operations/mobile-finder.ts';
import { findProfileEmail } from '../../../operations/b2b-profile-email.ts';
import { findEmployees } from '../../../operations/employee-finder.ts';
import { emailToProfile } from '../../../operations/b2b-profile.ts';
import { profileSearch } from '../../../operations/profile-search.ts';
import { findPersonalEmail } from '../../../operations/personal-email-finder.ts';
import { detectJobChange } from '../../../operations/job-change-detector.ts';
import { searchCompetitors } from '../../../operations/competitors-search.ts';
import { companyTechnographics } from '../../../operations/technographics.ts';

type Body = Record<string, unknown>;

/** One v1 operation: the operation it is, and how its answer is made and shaped. Its paths are the operation's v1 spellings. */
interface V1Surface {
  method: 'GET' | 'POST';
  operation: OperationId;
  /** LeadMagic's operationId for the path. */
  operationId: string;
  response: TSchema;
  /** The request body when it differs from the operation's. */
  body?: TObject;
  /** A charged path: our answer, then its v1 shape (toV1 unless said otherwise). */
  answer?: (context: OperationContext, body: never) => Promise<Answer<object>>;
  shape?: (body: Body) => Body;
  /** A free path: its whole answer. */
  free?: (services: Services, keyId: number) => Promise<unknown>;
}

const asV1 = (body: Body) => toV1(body) as Body;

/** "14155552671" (our digits) → "+14155552671" (v1 writes E.164). */
function e164(body: Body): Body {
  const v1 = asV1(body);
  return { ...v1, mobile_number: typeof body.mobile_number === 'number' ? `+${body.mobile_number}` : null };
}

function profileEmail(body: Body): Body {
  const email = typeof body.email === 'string' ? body.email : null;
  return { ...asV1(body), work_email: email, status: email ? 'found' : 'not_found' };
}

/** Their document requires the email as a string: a finder that found nothing answers "" (status not_found says so). */
function finderEmail(body: Body): Body {
  return { ...asV1(body), email: typeof body.email === 'string' ? body.email : '' };
}

function jobListings(body: Body): Body {
  const v1 = asV1(body);
  const results = (v1.results as Body[]).map((job) => ({
    ...job,
    // Their document writes the company page link with its scheme.
    company: { ...(job.company as Body), linkedin_url: withScheme((job.company as Body).linkedin_url as string | null) ?? undefined },
    ...(typeof job.salary_min === 'number' ? { salary_min: String(job.salary_min) } : {}),
    ...(typeof job.salary_max === 'number' ? { salary_max: String(job.salary_max) } : {}),
    expired: null,
  }));
  return { ...v1, results };
}

/** Their document's profile: the company size as a string, and each position as title, subtitle (the company) and caption (the dates). */
function profile(body: Body): Body {
  const v1 = asV1(body);
  const history =
    (body.work_experience as { title: string; company_name: string; start_date: string | null; end_date: string | null }[] | null) ?? [];
  const text = (n: unknown) => (typeof n === 'number' ? String(n) : undefined);
  return {
    ...v1,
    company_size: text(body.company_size),
    ...(body.work_experience
      ? {
          experiences: history.map((p) => ({
            title: p.title,
            subtitle: p.company_name,
            caption: `${p.start_date ?? '?'} - ${p.end_date ?? 'Present'}`,
          })),
        }
      : {}),
  };
}

/** Their clients read the list and the status even when nothing was found. */
function personalEmail(body: Body): Body {
  return { ...asV1(body), personal_email: body.personal_email ?? null, personal_emails: body.personal_emails ?? [], status: body.status };
}

/** Their document types revenue and total funding as integers (whole dollars). */
function funding(body: Body): Body {
  const v1 = asV1(body);
  const social = v1.socialMedia as { platform: string; url: string }[] | undefined;
  const money = v1.financialInfo as Record<string, unknown> | undefined;
  const whole = (n: unknown) => (typeof n === 'number' ? Math.round(n) : n);
  return {
    ...v1,
    ...(social ? { socialMedia: social.map((s) => ({ ...s, platform: V1_PLATFORMS[s.platform] ?? s.platform })) } : {}),
    ...(money ? { financialInfo: { ...money, revenue: whole(money.revenue), totalFunding: whole(money.totalFunding) } } : {}),
  };
}

/**
 * LeadMagic publishes no schema for this answer; the workflow templates it ships with its n8n node
 * read the technologies as `data` (technographics-analysis branches on it), so the list is there too.
 */
function technographics(body: Body): Body {
  const v1 = asV1(body);
  return { ...v1, data: v1.technologies ?? [] };
}

const V1_SURFACES: readonly V1Surface[] = [
  {
    method: 'GET',
    operation: 'credits',
    operationId: 'getCredits',
    response: V1CreditsResponse,
    free: creditsOf,
  },
  {
    method: 'POST',
    operation: 'email-validate',
    operationId: 'validateEmail',
    response: V1EmailValidationResponse,
    answer: validateEmail,
  },
  {
    method: 'POST',
    operation: 'email-finder',
    operationId: 'findEmail',
    response: V1EmailFinderResponse,
    answer: findEmail,
    shape: finderEmail,
  },
  {
    method: 'POST',
    operation: 'role-finder',
    operationId: 'findRole',
    response: V1RoleFinderResponse,
    answer: findRole,
  },
  {
    method: 'POST',
    operation: 'mobile-finder',
    operationId: 'findMobile',
    response: V1MobileFinderResponse,
    answer: findMobile,
    shape: e164,
  },
  {
    method: 'POST',
    operation: 'b2b-profile-email',
    operationId: 'socialToWorkEmail',
    response: V1ProfileEmailResponse,
    answer: findProfileEmail,
    shape: profileEmail,
  },
  {
    method: 'POST',
    operation: 'b2b-profile',
    operationId: 'emailToProfile',
    response: V1EmailToProfileResponse,
    answer: emailToProfile,
  },
  {
    method: 'POST',
    operation: 'profile-search',
    operationId: 'searchProfile',
    response: V1ProfileSearchResponse,
    answer: profileSearch,
    shape: profile,
  },
  {
    method: 'POST',
    operation: 'personal-email-finder',
    operationId: 'findPersonalEmail',
    response: V1PersonalEmailResponse,
    answer: findPersonalEmail,
    shape: personalEmail,
  },
  {
    method: 'POST',
    operation: 'job-change-detector',
    operationId: 'detectJobChange',
    response: V1JobChangeResponse,
    answer: detectJobChange,
  },
  {
    method: 'POST',
    operation: 'employee-finder',
    operationId: 'findEmployees',
    response: V1EmployeeFinderResponse,
    answer: findEmployees,
  },
  {
    method: 'POST',
    operation: 'company-search',
    operationId: 'searchCompany',
    response: V1CompanySearchResponse,
    answer: companySearch,
  },
  {
    method: 'POST',
    operation: 'competitors-search',
    operationId: 'searchCompetitors',
    response: V1CompetitorsResponse,
    answer: searchCompetitors,
  },
  {
    method: 'POST',
    operation: 'technographics',
    operationId: 'getTechnographics',
    response: V1TechnographicsResponse,
    answer: companyTechnographics,
    shape: technographics,
  },
  {
    method: 'POST',
    operation: 'company-funding',
    operationId: 'getCompanyFunding',
    response: V1CompanyFundingResponse,
    answer: companyFunding,
    shape: funding,
  },
  {
    method: 'POST',
    operation: 'jobs-finder',
    operationId: 'findJobs',
    response: V1JobsFinderResponse,
    body: V1JobsFinderBody,
    // Their request has no has_remote: absent, it means any listing (docs/leadmagic-v1.md, Jobs).
    answer: (services, body: Static<typeof V1JobsFinderBody>) => findJobs(services, { ...body, has_remote: body.has_remote ?? 'any' }),
    shape: jobListings,
  },
  {
    method: 'GET',
    operation: 'job-types',
    operationId: 'getJobTypes',
    response: IdNameList,
    free: (services) => services.lookups.list('job_types'),
  },
  {
    method: 'GET',
    operation: 'job-country',
    operationId: 'getJobCountries',
    response: JobCountryList,
    free: (services) => services.lookups.countries(),
  },
  {
    method: 'GET',
    operation: 'job-regions',
    operationId: 'getJobRegions',
    response: IdNameList,
    free: (services) => services.lookups.list('job_regions'),
  },
  {
    method: 'GET',
    operation: 'job-industries',
    operationId: 'getJobIndustries',
    response: IdNameList,
    free: (services) => services.lookups.list('job_industries'),
  },
  {
    method: 'GET',
    operation: 'job-company-types',
    operationId: 'getJobCompanyTypes',
    response: IdNameList,
    free: (services) => services.lookups.list('job_company_types'),
  },
];

/** A v1 operation at its documented path (the first of its v1 spellings). */
export type V1Route = V1Surface & { path: `/v1/${string}` };

/** Every v1 operation's spellings: the documented path first. */
function v1PathsOf(operation: OperationId): readonly `/v1/${string}`[] {
  const paths = spellingsOf(operation).v1;
  if (!paths.length) throw new Error(`${operation} is on the v1 surface but its descriptor names no v1 path`);
  return paths;
}

export const V1_ROUTES: readonly V1Route[] = V1_SURFACES.map((surface) => ({ ...surface, path: v1PathsOf(surface.operation)[0] }));

/**
 * Every v1 path: LeadMagic's operationId (prefixed v1) under the tag "leadmagic-v1". The other
 * spellings of a path, and a free path asked by POST (their clients post to the lookups and
 * credits), are served alike and left out of the OpenAPI document.
 */
export default async function v1Routes(app: FastifyInstance): Promise<void> {
  for (const route of V1_ROUTES) {
    const options = routeOptions(route.operation, route.method, {
      path: route.path,
      operationId: `v1${route.operationId[0].toUpperCase()}${route.operationId.slice(1)}`,
      tag: 'leadmagic-v1',
      response: route.response,
      body: route.body,
    });
    const { answer, free } = route;
    const shape = route.shape ?? asV1;
    const schema = { ...options.schema, summary: `${OPERATIONS[route.operation].summary} (LeadMagic v1)` };
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      if (free) return free(app.services, request.apiKey!.id);
      const { cost, body } = await answer!(app.services, request.body as never);
      return reply.settle(cost, shape(body as Body));
    };
    const methods = free ? (['GET', 'POST'] as const) : ([route.method] as const);
    for (const url of v1PathsOf(route.operation))
      for (const method of methods) {
        const documented = url === route.path && method === route.method;
        app.route({ ...options, method, url, schema: documented ? schema : { ...schema, hide: true }, handler });
      }
  }
}
