// leadbase's operations as MCP tools (docs/mcp.md): one tool per endpoint, its input schema the
// operation's request schema, its output schema the operation's answer. A tool call is a call of
// the API itself with the caller's key (ApiCall), so it is authenticated, limited, charged and
// made idempotent exactly as the same request over HTTP: the same ledger rows, the same answers.
import { OPERATIONS, type OperationId } from '../operations/catalogue.ts';
import { withOriginalNamesSchema } from '../contract/original-names.ts';

/** One API request a tool call makes, and its answer. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  /** Sent as Idempotency-Key: a retried tool call with the same key is answered once, charged once. */
  idempotencyKey?: string;
}
export type ApiAnswer = { ok: true; body: unknown } | { ok: false; status: number; code: string; message: string };
/** How tool calls reach the API: in process for /mcp, over HTTP for `leadbase mcp`. */
export type ApiCall = (request: ApiRequest) => Promise<ApiAnswer>;

interface ToolSpec {
  operation: OperationId;
  /** What the tool does; its price is added from the operation's charge rule (see toolDefinitions). */
  description: string;
}

/** The tools, by name (names as assistants read them: a verb and what it acts on). */
export const TOOLS = {
  validate_email: {
    operation: 'email-validate',
    description: 'Validate an email address: syntax, MX records, an SMTP check, catch-all detection, and the company behind the domain.',
  },
  find_email: {
    operation: 'email-finder',
    description:
      "Find a person's work email from their first and last name and their company's domain (or name), checked with the mail server.",
  },
  company_funding: {
    operation: 'company-funding',
    description: "A company's funding rounds, investors, financials, leadership and news, by domain or name.",
  },
  search_company: {
    operation: 'company-search',
    description: "A company's profile (industry, size, founding year, locations, website) by domain, page URL or name.",
  },
  search_jobs: {
    operation: 'jobs-finder',
    description:
      'Search live job listings by company, title, location, country, level, remote and posting date (ids of the filters from the list_* tools). Use per_page to bound the cost.',
  },
  find_role: {
    operation: 'role-finder',
    description: 'Find who holds a job title (CEO, Head of Sales…) at a company, by company domain or name.',
  },
  find_employees: {
    operation: 'employee-finder',
    description: 'List the people currently working at a company, most senior first, a page at a time.',
  },
  find_mobile: {
    operation: 'mobile-finder',
    description: "Find a person's mobile number from their profile URL, work email or personal email.",
  },
  profile_to_work_email: {
    operation: 'b2b-profile-email',
    description: 'Find the work email of a professional profile URL.',
  },
  email_to_profile: {
    operation: 'b2b-profile',
    description: 'Find the person behind an email address: their profile URL, name and current position.',
  },
  search_profile: {
    operation: 'profile-search',
    description: "A professional profile's person: name, current title and company, and their positions history.",
  },
  find_personal_email: {
    operation: 'personal-email-finder',
    description: 'Find the personal email addresses of a professional profile URL.',
  },
  detect_job_change: {
    operation: 'job-change-detector',
    description:
      'Check whether a person (profile URL) still works at a company (domain or name): no change, a change (when, and where they went) or never worked there.',
  },
  list_company_competitors: {
    operation: 'competitors-search',
    description:
      'Competitors of a company (domain, website, name or page URL): those sources name, then peers of the same industry, size band and market, each with the reasons.',
  },
  get_company_technographics: {
    operation: 'technographics',
    description:
      'The technologies a company (domain, website, name or page URL) uses, read from its job listings, each with its evidence: how many listings name it, first and last seen, a link to the latest.',
  },
  search_people: {
    operation: 'people-search',
    description:
      'Find people by company (domain, industry, country, size) and person filters (job function, level, minimum seniority, has email), most senior first. Use per_page to bound the cost.',
  },
  check_credits: { operation: 'credits', description: "The API key's credit balance." },
  list_job_types: { operation: 'job-types', description: 'Job types and their ids (for search_jobs job_type_id).' },
  list_job_countries: { operation: 'job-country', description: 'Countries and their codes (for search_jobs country_id).' },
  list_job_regions: { operation: 'job-regions', description: 'Regions and their ids (for search_jobs region_id).' },
  list_job_company_types: {
    operation: 'job-company-types',
    description: 'Company types and their ids (for search_jobs company_type_id).',
  },
  list_job_industries: {
    operation: 'job-industries',
    description: 'Industries and their ids (for search_jobs company_industry_id).',
  },
} as const satisfies Record<string, ToolSpec>;

export type ToolName = keyof typeof TOOLS;

/**
 * Other MCP servers' tool names, answered by our tool for the same operation (docs/mcp.md, "Other
 * tool names"), so a workflow written for them calls ours unchanged. They are not listed by
 * tools/list (an assistant sees each tool once). Their tools for operations we do not have are not
 * here: a call of one is answered "unknown tool".
 */
export const TOOL_ALIASES: Readonly<Record<string, ToolName>> = {
  // LeadMagic's hosted MCP server.
  check_credit_balance: 'check_credits',
  validate_work_email: 'validate_email',
  find_work_email: 'find_email',
  find_mobile_number: 'find_mobile',
  linkedin_profile_to_work_email: 'profile_to_work_email',
  research_account: 'search_company',
  find_people_by_role: 'find_role',
  // LeadMagic's stdio server (validate_email, find_email, search_company, find_role, find_employees
  // and find_mobile are our names too).
  get_credits: 'check_credits',
  social_to_work_email: 'profile_to_work_email',
  find_jobs: 'search_jobs',
  get_job_countries: 'list_job_countries',
  get_job_types: 'list_job_types',
  get_company_funding: 'company_funding',
  // The MCP server of the leadmagic agent CLI.
  people_validate_email: 'validate_email',
  people_find_email: 'find_email',
  people_find_employees: 'find_employees',
  people_find_mobile: 'find_mobile',
  people_find_role: 'find_role',
  people_profile_to_email: 'profile_to_work_email',
  companies_search: 'search_company',
  companies_funding: 'company_funding',
  jobs_find: 'search_jobs',
  jobs_countries: 'list_job_countries',
  jobs_types: 'list_job_types',
  people_email_to_profile: 'email_to_profile',
  people_profile: 'search_profile',
  people_personal_email: 'find_personal_email',
  people_job_change: 'detect_job_change',
  companies_competitors: 'list_company_competitors',
  companies_technographics: 'get_company_technographics',
};

const IDEMPOTENCY_KEY = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Optional: the same key on a retry of this call answers it again without a second charge (24 hours).',
};

/** A JSON Schema object as MCP declares it (TypeBox schemas are JSON Schema; their symbols do not serialize). */
type JsonObjectSchema = { type: 'object'; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };

const plain = (schema: unknown): JsonObjectSchema => JSON.parse(JSON.stringify(schema)) as JsonObjectSchema;

export interface ToolDefinition {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: JsonObjectSchema;
  outputSchema: JsonObjectSchema;
  annotations: { readOnlyHint: boolean; openWorldHint: boolean; idempotentHint: boolean };
}

/** The tools/list answer. A list answer (the lookups) is wrapped as {items: […]}: structured content is an object. */
export function toolDefinitions(): ToolDefinition[] {
  return (Object.entries(TOOLS) as [ToolName, ToolSpec][]).map(([name, spec]) => {
    const op = OPERATIONS[spec.operation];
    const body = 'body' in op ? plain(op.body) : { type: 'object' as const, properties: {} };
    const charged = 'charge' in op;
    // The answer as our own path gives it: the contract's fields and the original API's names beside them.
    const response = plain(withOriginalNamesSchema(op.response)) as unknown as { type: string };
    return {
      name,
      title: op.summary,
      description: `${spec.description} ${charged ? `Charge: ${op.charge.rule}.` : 'Free.'}`,
      inputSchema: charged ? { ...body, properties: { ...body.properties, idempotency_key: IDEMPOTENCY_KEY } } : body,
      outputSchema:
        response.type === 'object'
          ? (response as JsonObjectSchema)
          : { type: 'object', properties: { items: response }, required: ['items'] },
      // Nothing is changed in the world, but a charged call spends credits: not read-only.
      annotations: {
        readOnlyHint: !charged,
        openWorldHint: spec.operation === 'email-validate' || spec.operation === 'email-finder',
        idempotentHint: !charged,
      },
    };
  });
}

/** Our tool of a name: one of ours, or another server's name for it; undefined when there is none. */
export function toolNamed(name: string): ToolName | undefined {
  if (Object.hasOwn(TOOLS, name)) return name as ToolName;
  return Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : undefined;
}

/** The API request of a tool call. */
export function requestOf(name: ToolName, args: Record<string, unknown>): ApiRequest {
  const op = OPERATIONS[TOOLS[name].operation];
  const { idempotency_key: idempotencyKey, ...body } = args;
  if (!('body' in op)) return { method: 'GET', path: op.path };
  return { method: 'POST', path: op.path, body, idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined };
}
