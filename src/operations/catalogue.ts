// One description per operation of the API: its path, schemas, summary, per-minute limit and
// price rule. Routes, rate limits, the pay-before-work check, OpenAPI summaries and the shared route
// tests all read from here, so an operation is changed in one place, and an operation id that does
// not exist is a compile error rather than a silently unlimited route (docs/contract.md, Endpoints).
// Nothing here knows the web framework: src/http/route-options.ts makes Fastify routes of it, and the
// other surfaces (LeadMagic's v1 paths, MCP tools, bulk products, the console) read it as it is.
import type { TObject, TSchema } from '@sinclair/typebox';
import { PRICES } from '../billing/prices.ts';
import { emailValidationCost } from '../email/messages.ts';
import { EmailFinderBody, EmailFinderResponse, EmailValidateBody, EmailValidateResponse, type EmailStatus } from '../contract/email.ts';
import { BulkJobParams, BulkJobResponse, BulkResults } from '../contract/email-bulk.ts';
import {
  BulkCapabilities,
  BulkDownload,
  BulkEventsPage,
  BulkJobList,
  BulkJobMetrics,
  BulkListQuery,
  BulkLogsPage,
  BulkLogsQuery,
  BulkProgress,
  BulkJobResponse as ProductBulkJob,
  BulkRowsPage,
  BulkReviewResponse,
  BulkRowsQuery,
  BulkStream,
  BulkSubmitBody,
} from '../contract/bulk.ts';
import {
  CompanyFundingBody,
  CompanyFundingResponse,
  CompanySearchBody,
  CompanySearchResponse,
  CompetitorsBody,
  CompetitorsResponse,
  TechnographicsBody,
  TechnographicsResponse,
} from '../contract/companies.ts';
import { JobsFinderAnswer, JobsFinderBody } from '../contract/jobs.ts';
import {
  EmailToProfileBody,
  EmailToProfileResponse,
  EmployeeFinderBody,
  EmployeeFinderResponse,
  JobChangeBody,
  JobChangeResponse,
  PeopleSearchBody,
  PeopleSearchResponse,
  PersonalEmailResponse,
  ProfileBody,
  ProfileSearchResponse,
  MobileFinderBody,
  MobileFinderResponse,
  ProfileEmailBody,
  ProfileEmailResponse,
  RoleFinderBody,
  RoleFinderResponse,
} from '../contract/people.ts';
import { CreditsResponse, IdNameList, JobCountryList } from '../contract/lookups.ts';
import { McpMessage } from '../contract/mcp.ts';

/** How a charged operation is priced, in millicredits. */
interface Charge {
  /** The smallest non-zero charge the operation can make: below it a key gets 402 before any work. */
  minimum: number;
  /** The price rule in words (OpenAPI description, docs). */
  rule: string;
}

export interface OperationBase {
  path: `/${string}`;
  methods: readonly ('GET' | 'POST' | 'DELETE')[];
  /** Answered with 202 Accepted: the work is queued. */
  accepted?: true;
  /** The route writes its own answer on the raw socket (a protocol endpoint): no Idempotency-Key replay. */
  rawAnswer?: true;
  /** Path parameters' schema (`:name` in the path). */
  params?: TObject;
  /** Query string's schema. */
  query?: TObject;
  summary: string;
  tag: string;
  /** Requests per minute per key (a key may be given its own limit). */
  perMinute: number;
  body?: TObject;
  response: TSchema;
  charge?: Charge;
  /** Messages of a lookup that finds something or nothing (docs/contract.md, Not found). */
  messages?: { found: string; notFound: string };
  /**
   * The other paths clients of LeadMagic's API send for this operation (docs/leadmagic-v1.md):
   * `plain` are answered as `path` is (our contract's shape), `v1` in the LeadMagic v1 shape. The
   * first v1 path is the documented one; the others are served alike and left out of OpenAPI.
   */
  spellings?: { plain?: readonly `/${string}`[]; v1?: readonly `/v1/${string}`[] };
}

const found = (price: number, what: string): Charge => ({ minimum: price, rule: `${price / 1000} credits when ${what} is found, else 0` });

export const OPERATIONS = {
  'email-validate': {
    path: '/email-validate',
    methods: ['POST'],
    summary: 'Validate an email address (0.05 credits for valid, valid_catch_all and invalid)',
    tag: 'email',
    perMinute: 1000,
    body: EmailValidateBody,
    response: EmailValidateResponse,
    charge: {
      minimum: PRICES.emailValidationCharged,
      rule: '0.05 credits for valid, valid_catch_all and invalid; 0 for catch_all and unknown',
    },
    spellings: { v1: ['/v1/people/email-validation', '/v1/emails/validate'] },
  },
  'email-validate-bulk': {
    path: '/email-validate/bulk',
    methods: ['POST'],
    summary: 'Queue a list of up to 1,000,000 addresses for validation (JSON or text/csv); each result at the single-address price',
    tag: 'email',
    perMinute: 60,
    accepted: true,
    response: BulkJobResponse,
  },
  'email-validate-bulk-status': {
    path: '/email-validate/bulk/:id',
    methods: ['GET'],
    summary: "A bulk job's progress, counts and credits consumed",
    tag: 'email',
    perMinute: 600,
    params: BulkJobParams,
    response: BulkJobResponse,
  },
  'email-validate-bulk-results': {
    path: '/email-validate/bulk/:id/results',
    methods: ['GET'],
    summary: "A bulk job's charged results so far, streamed (NDJSON, or CSV with Accept: text/csv)",
    tag: 'email',
    perMinute: 60,
    params: BulkJobParams,
    response: BulkResults,
  },
  'email-validate-bulk-cancel': {
    path: '/email-validate/bulk/:id',
    methods: ['DELETE'],
    summary: 'Cancel a bulk job: nothing more is validated or charged',
    tag: 'email',
    perMinute: 60,
    params: BulkJobParams,
    response: BulkJobResponse,
  },
  'bulk-submit': {
    path: '/bulk',
    methods: ['POST'],
    summary:
      'Queue up to 100,000 rows for one product (email_finder, email_validation, mobile_finder, company_search, profile_search); each row charged as its single call',
    tag: 'bulk',
    perMinute: 60,
    accepted: true,
    body: BulkSubmitBody,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/submit', '/bulk/json', '/bulk/csv', '/bulk/url'] },
  },
  'bulk-review': {
    path: '/bulk/review',
    methods: ['POST'],
    summary:
      'Read a bulk list as a submit would, without queuing or charging anything: rows readable, rows refused and why, the mapping applied, unused columns, and the most the job can cost',
    tag: 'bulk',
    perMinute: 60,
    body: BulkSubmitBody,
    response: BulkReviewResponse,
    spellings: { plain: ['/bulk/validate'] },
  },
  'bulk-list': {
    path: '/bulk',
    methods: ['GET'],
    summary: "The key's bulk jobs, newest first (100 a page), filtered by status and product",
    tag: 'bulk',
    perMinute: 600,
    query: BulkListQuery,
    response: BulkJobList,
    spellings: { plain: ['/bulk/jobs'] },
  },
  'bulk-status': {
    path: '/bulk/:id',
    methods: ['GET'],
    summary: "A bulk job's progress, what it found, what it refused and why, and the credits it consumed",
    tag: 'bulk',
    perMinute: 600,
    params: BulkJobParams,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/jobs/:id'] },
  },
  'bulk-results': {
    path: '/bulk/:id/results',
    methods: ['GET'],
    summary: "A bulk job's charged rows so far, a page at a time (JSON)",
    tag: 'bulk',
    perMinute: 600,
    params: BulkJobParams,
    query: BulkRowsQuery,
    response: BulkRowsPage,
    spellings: { plain: ['/bulk/jobs/:id/results', '/bulk/jobs/:id/rows'] },
  },
  'bulk-errors': {
    path: '/bulk/:id/errors',
    methods: ['GET'],
    summary: "A bulk job's refused rows, each with its reason, a page at a time (JSON)",
    tag: 'bulk',
    perMinute: 600,
    params: BulkJobParams,
    query: BulkRowsQuery,
    response: BulkRowsPage,
    spellings: { plain: ['/bulk/jobs/:id/errors'] },
  },
  'bulk-download': {
    path: '/bulk/:id/download',
    methods: ['GET'],
    summary: "A bulk job's charged rows so far as one CSV file, streamed",
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: BulkDownload,
    spellings: { plain: ['/bulk/jobs/:id/download'] },
  },
  'bulk-cancel': {
    path: '/bulk/:id',
    methods: ['DELETE'],
    summary: 'Cancel a bulk job: nothing more is answered or charged',
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/jobs/:id'] },
  },
  'bulk-cancel-job': {
    path: '/bulk/:id/cancel',
    methods: ['POST'],
    summary: 'Cancel a bulk job (as DELETE /bulk/{id}): nothing more is answered or charged; restart goes on with it',
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/jobs/:id/cancel'] },
  },
  'bulk-pause': {
    path: '/bulk/:id/pause',
    methods: ['POST'],
    summary: 'Pause a bulk job: it stops after the rows in hand, charging nothing more, until resumed',
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/jobs/:id/pause'] },
  },
  'bulk-resume': {
    path: '/bulk/:id/resume',
    methods: ['POST'],
    summary: 'Resume a paused bulk job from its first row not yet served (one paused for credits looks at the balance at once)',
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/jobs/:id/resume'] },
  },
  'bulk-restart': {
    path: '/bulk/:id/restart',
    methods: ['POST'],
    summary: 'Queue a failed or cancelled bulk job again: its rows not yet served are answered and charged, served rows stay as charged',
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: ProductBulkJob,
    spellings: { plain: ['/bulk/jobs/:id/restart'] },
  },
  'bulk-events': {
    path: '/bulk/:id/events',
    methods: ['GET'],
    summary:
      "A bulk job's history: created, started, paused (and why), resumed, restarted, done, failed, cancelled, with times and figures",
    tag: 'bulk',
    perMinute: 600,
    params: BulkJobParams,
    response: BulkEventsPage,
    spellings: { plain: ['/bulk/jobs/:id/events'] },
  },
  'bulk-stream': {
    path: '/bulk/:id/stream',
    methods: ['GET'],
    summary: "A bulk job's progress as Server-Sent Events until it ends (text/event-stream), with a heartbeat",
    tag: 'bulk',
    perMinute: 60,
    params: BulkJobParams,
    response: BulkStream,
    spellings: { plain: ['/bulk/jobs/:id/stream'] },
  },
  'bulk-metrics': {
    path: '/bulk/:id/metrics',
    methods: ['GET'],
    summary: "A bulk job's figures and pace: rows per second over the last minute and overall, time left, time spent paused",
    tag: 'bulk',
    perMinute: 600,
    params: BulkJobParams,
    response: BulkJobMetrics,
    spellings: { plain: ['/bulk/jobs/:id/metrics'] },
  },
  'bulk-logs': {
    path: '/bulk/:id/logs',
    methods: ['GET'],
    summary: "A bulk job's log, a page at a time: its events in words, then each refused row with its reason",
    tag: 'bulk',
    perMinute: 600,
    params: BulkJobParams,
    query: BulkLogsQuery,
    response: BulkLogsPage,
    spellings: { plain: ['/bulk/jobs/:id/logs'] },
  },
  'bulk-capabilities': {
    path: '/bulk/capabilities',
    methods: ['GET'],
    summary: 'What a bulk job can run: each product with its operation, request fields, price rule and row limit, and the accepted inputs',
    tag: 'bulk',
    perMinute: 600,
    response: BulkCapabilities,
  },
  'bulk-progress': {
    path: '/bulk/progress',
    methods: ['GET'],
    summary: "The key's bulk jobs not ended (queued, running, paused) with their figures and pace, in one call",
    tag: 'bulk',
    perMinute: 600,
    response: BulkProgress,
  },
  'email-finder': {
    path: '/email-finder',
    methods: ['POST'],
    summary: "Find a person's work email from their name and company (1 credit when found)",
    tag: 'email',
    perMinute: 300,
    body: EmailFinderBody,
    response: EmailFinderResponse,
    charge: found(PRICES.emailFinderFound, 'an email'),
    messages: { found: 'Email found.', notFound: 'No email found.' },
    spellings: { v1: ['/v1/people/email-finder', '/v1/emails/finder'] },
  },
  'company-funding': {
    path: '/company-funding',
    methods: ['POST'],
    summary: "A company's funding, financial, leadership and news data (4 credits when found)",
    tag: 'companies',
    perMinute: 300,
    body: CompanyFundingBody,
    response: CompanyFundingResponse,
    charge: found(PRICES.companyFundingFound, 'funding data'),
    messages: { found: 'Funding data found.', notFound: 'No funding data found for this company.' },
    spellings: { v1: ['/v1/companies/company-funding', '/v1/companies/funding'] },
  },
  'company-search': {
    path: '/company-search',
    methods: ['POST'],
    summary: "A company's profile from its domain, name or professional-network page (1 credit when found)",
    tag: 'companies',
    perMinute: 300,
    body: CompanySearchBody,
    response: CompanySearchResponse,
    charge: found(PRICES.companySearchFound, 'the company'),
    messages: { found: 'Company found.', notFound: 'Company not found.' },
    spellings: { v1: ['/v1/companies/company-search', '/v1/companies/search'] },
  },
  'competitors-search': {
    path: '/competitors-search',
    methods: ['POST'],
    summary:
      'Competitors of a company: those sources name, then peers of the same industry, size band and market, each with why (5 credits when found)',
    tag: 'companies',
    perMinute: 300,
    body: CompetitorsBody,
    response: CompetitorsResponse,
    charge: found(PRICES.competitorsFound, 'a competitor'),
    messages: { found: 'Competitors found.', notFound: 'No competitors found for this company.' },
    spellings: { v1: ['/v1/companies/competitors-search'] },
  },
  technographics: {
    path: '/technographics',
    methods: ['POST'],
    summary:
      'The technologies a company uses, read from its job listings, each with its evidence: how many listings, first and last seen, a link (1 credit when found)',
    tag: 'companies',
    perMinute: 300,
    body: TechnographicsBody,
    response: TechnographicsResponse,
    charge: found(PRICES.technographicsFound, 'a technology'),
    messages: { found: 'Technologies found.', notFound: 'No technologies found for this company.' },
    spellings: { v1: ['/v1/companies/technographics'] },
  },
  'jobs-finder': {
    path: '/jobs-finder',
    methods: ['POST'],
    summary: 'Search job listings (1 credit per returned job)',
    tag: 'jobs',
    perMinute: 200,
    body: JobsFinderBody,
    response: JobsFinderAnswer,
    charge: { minimum: PRICES.jobsFinderPerJob, rule: '1 credit per returned listing' },
    spellings: { v1: ['/v1/jobs/jobs-finder', '/v1/jobs/finder'] },
  },
  'role-finder': {
    path: '/role-finder',
    methods: ['POST'],
    summary: 'Find who holds a job title at a company (2 credits when found)',
    tag: 'people',
    perMinute: 500,
    body: RoleFinderBody,
    response: RoleFinderResponse,
    charge: found(PRICES.roleFinderFound, 'the role'),
    messages: { found: 'Role found.', notFound: 'Role not found.' },
    spellings: { v1: ['/v1/people/role-finder'] },
  },
  'employee-finder': {
    path: '/employee-finder',
    methods: ['POST'],
    summary: 'The people currently working at a company, most senior first (0.05 credits per employee returned)',
    tag: 'people',
    perMinute: 300,
    body: EmployeeFinderBody,
    response: EmployeeFinderResponse,
    charge: { minimum: PRICES.employeeFinderPerEmployee, rule: '0.05 credits per returned employee' },
    messages: { found: 'Data found for the given company.', notFound: 'No employees found for the given company.' },
    spellings: { v1: ['/v1/people/employee-finder', '/v1/people/employees'] },
  },
  'people-search': {
    path: '/people-search',
    methods: ['POST'],
    summary: 'People by company and person filters, most senior first, paged (0.05 credits per person returned)',
    tag: 'people',
    perMinute: 300,
    body: PeopleSearchBody,
    response: PeopleSearchResponse,
    charge: { minimum: PRICES.peopleSearchPerPerson, rule: '0.05 credits per returned person' },
    spellings: { plain: ['/v3/people/search'] },
  },
  'mobile-finder': {
    path: '/mobile-finder',
    methods: ['POST'],
    summary: 'Find a mobile number from a profile URL or an email (5 credits when found)',
    tag: 'people',
    perMinute: 300,
    body: MobileFinderBody,
    response: MobileFinderResponse,
    charge: found(PRICES.mobileFinderFound, 'a mobile number'),
    messages: { found: 'Mobile found.', notFound: 'Mobile not found.' },
    spellings: { v1: ['/v1/people/mobile-finder', '/v1/people/mobile'] },
  },
  'b2b-profile-email': {
    path: '/b2b-profile-email',
    methods: ['POST'],
    summary: 'Find the work email of a professional profile (5 credits when found)',
    tag: 'people',
    perMinute: 300,
    body: ProfileEmailBody,
    response: ProfileEmailResponse,
    charge: found(PRICES.profileEmailFound, 'an email'),
    messages: { found: 'Email found.', notFound: 'No email found for this profile.' },
    spellings: { plain: ['/b2b-social-email'], v1: ['/v1/people/b2b-profile-email', '/v1/emails/social-to-work'] },
  },
  'b2b-profile': {
    path: '/b2b-profile',
    methods: ['POST'],
    summary: 'The person behind an email address and their profile URL (10 credits when found)',
    tag: 'people',
    perMinute: 300,
    body: EmailToProfileBody,
    response: EmailToProfileResponse,
    charge: found(PRICES.emailToProfileFound, 'the profile'),
    messages: { found: 'Profile found.', notFound: 'No profile found for this email.' },
    spellings: { v1: ['/v1/people/b2b-profile', '/v1/people/email-to-profile'] },
  },
  'profile-search': {
    path: '/profile-search',
    methods: ['POST'],
    summary: "A profile's person with their current and past positions (1 credit when found)",
    tag: 'people',
    perMinute: 300,
    body: ProfileBody,
    response: ProfileSearchResponse,
    charge: found(PRICES.profileSearchFound, 'the profile'),
    messages: { found: 'Profile found.', notFound: 'Profile not found.' },
    spellings: { v1: ['/v1/people/profile-search', '/v1/people/profile'] },
  },
  'personal-email-finder': {
    path: '/personal-email-finder',
    methods: ['POST'],
    summary: 'The personal email addresses of a profile (2 credits when found)',
    tag: 'people',
    perMinute: 300,
    body: ProfileBody,
    response: PersonalEmailResponse,
    charge: found(PRICES.personalEmailFound, 'a personal email'),
    messages: { found: 'Personal email found.', notFound: 'No personal email found for this profile.' },
    spellings: { v1: ['/v1/people/personal-email-finder', '/v1/emails/personal'] },
  },
  'job-change-detector': {
    path: '/job-change-detector',
    methods: ['POST'],
    summary: 'Whether a person still works at a company, and since when and where they moved (3 credits when both are known)',
    tag: 'people',
    perMinute: 300,
    body: JobChangeBody,
    response: JobChangeResponse,
    charge: found(PRICES.jobChangeChecked, 'the profile and the company'),
    messages: { found: 'Job change checked.', notFound: 'Profile or company not found.' },
    spellings: { v1: ['/v1/people/job-change-detector'] },
  },
  'job-types': {
    path: '/job-types',
    methods: ['GET'],
    summary: 'Job types (ids for job_type_id)',
    tag: 'lookups',
    perMinute: 1000,
    response: IdNameList,
    spellings: { v1: ['/v1/jobs/job-types', '/v1/jobs/types', '/v1/jobs/get-job-types'] },
  },
  'job-regions': {
    path: '/job-regions',
    methods: ['GET'],
    summary: 'Job regions (ids for region_id)',
    tag: 'lookups',
    perMinute: 1000,
    response: IdNameList,
    spellings: { v1: ['/v1/jobs/regions'] },
  },
  'job-company-types': {
    path: '/job-company-types',
    methods: ['GET'],
    summary: 'Company types (ids for company_type_id)',
    tag: 'lookups',
    perMinute: 1000,
    response: IdNameList,
    spellings: { v1: ['/v1/jobs/company-types'] },
  },
  'job-industries': {
    path: '/job-industries',
    methods: ['GET'],
    summary: 'Industries (ids for company_industry_id)',
    tag: 'lookups',
    perMinute: 1000,
    response: IdNameList,
    spellings: { v1: ['/v1/jobs/industries'] },
  },
  'job-country': {
    path: '/job-country',
    methods: ['GET'],
    summary: 'Every ISO 3166-1 country (ids for country_id)',
    tag: 'lookups',
    perMinute: 1000,
    response: JobCountryList,
    spellings: { v1: ['/v1/jobs/countries', '/v1/jobs/get-job-countries'] },
  },
  mcp: {
    path: '/mcp',
    methods: ['POST'],
    summary: "Model Context Protocol (Streamable HTTP, stateless): leadbase's operations as tools for AI assistants (docs/mcp.md)",
    tag: 'mcp',
    perMinute: 1000,
    rawAnswer: true,
    response: McpMessage,
  },
  credits: {
    path: '/credits',
    methods: ['GET', 'POST'],
    summary: 'Balance of the calling key (free)',
    tag: 'account',
    perMinute: 1000,
    response: CreditsResponse,
    spellings: { v1: ['/v1/credits'] },
  },
} as const satisfies Record<string, OperationBase>;

export type OperationId = keyof typeof OPERATIONS;
export type ChargedOperationId = { [K in OperationId]: (typeof OPERATIONS)[K] extends { charge: Charge } ? K : never }[OperationId];
export type Operation<Id extends OperationId> = (typeof OPERATIONS)[Id];

/** Every operation's per-minute limit, by id. */
export const RATE_LIMITS_PER_MINUTE: Record<OperationId, number> = Object.fromEntries(
  Object.entries(OPERATIONS).map(([id, op]) => [id, op.perMinute]),
) as Record<OperationId, number>;

/** The other paths an operation is served at (see OperationBase.spellings), each list empty when there are none. */
export function spellingsOf(id: OperationId): { plain: readonly `/${string}`[]; v1: readonly `/v1/${string}`[] } {
  const op: OperationBase = OPERATIONS[id];
  return { plain: op.spellings?.plain ?? [], v1: op.spellings?.v1 ?? [] };
}

export function isOperationId(value: string): value is OperationId {
  return Object.hasOwn(OPERATIONS, value);
}

/** An operation's request body schema (undefined when it takes none). */
export type BodyOf<Id extends OperationId> = Operation<Id> extends { body: infer B extends TObject } ? B : undefined;

/** The answer of a lookup that found nothing: every result field null, and the not-found message. */
export function notFoundBody(id: ChargedOperationId): Record<string, unknown> {
  const op: OperationBase = OPERATIONS[id];
  if (!op.messages) throw new Error(`${id} has no not-found answer`);
  const fields = Object.keys((op.response as TObject).properties).filter((k) => k !== 'credits_consumed' && k !== 'message');
  return { ...Object.fromEntries(fields.map((k) => [k, null])), message: op.messages.notFound };
}

/** What an answer costs, by the operation's price rule (millicredits). */
export const PRICE_OF = {
  'email-validate': (result: { email_status: EmailStatus }) => emailValidationCost(result.email_status),
  'email-finder': (result: { status: string }) => (result.status === 'not_found' ? 0 : PRICES.emailFinderFound),
  'company-funding': (isFound: boolean) => (isFound ? PRICES.companyFundingFound : 0),
  'company-search': (isFound: boolean) => (isFound ? PRICES.companySearchFound : 0),
  'jobs-finder': (result: { results: unknown[] }) => PRICES.jobsFinderPerJob * result.results.length,
  'employee-finder': (result: { data: unknown[] }) => PRICES.employeeFinderPerEmployee * result.data.length,
  'people-search': (result: { data: unknown[] }) => PRICES.peopleSearchPerPerson * result.data.length,
  'role-finder': (isFound: boolean) => (isFound ? PRICES.roleFinderFound : 0),
  'mobile-finder': (isFound: boolean) => (isFound ? PRICES.mobileFinderFound : 0),
  'b2b-profile-email': (isFound: boolean) => (isFound ? PRICES.profileEmailFound : 0),
  'b2b-profile': (isFound: boolean) => (isFound ? PRICES.emailToProfileFound : 0),
  'profile-search': (isFound: boolean) => (isFound ? PRICES.profileSearchFound : 0),
  'personal-email-finder': (isFound: boolean) => (isFound ? PRICES.personalEmailFound : 0),
  'job-change-detector': (isFound: boolean) => (isFound ? PRICES.jobChangeChecked : 0),
  'competitors-search': (isFound: boolean) => (isFound ? PRICES.competitorsFound : 0),
  technographics: (isFound: boolean) => (isFound ? PRICES.technographicsFound : 0),
} satisfies Record<ChargedOperationId, (result: never) => number>;
