// The operators' /admin API (the console is built on it; docs/console.md) as the OpenAPI document
// shows it, under the "admin" tag. Each route's handler checks its own input and answers a mistake
// with a message naming the field, so these schemas describe the routes without taking over their
// checks or the shape of their answers (validation and serialization stay the handler's).
// The typed client leaves /admin out: it is for API keys (scripts/client-types.mjs).
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorResponse, Nullable } from './common.ts';
import { BULK_PRODUCTS } from './bulk.ts';

/** The cookie a console session lives in, and the header a change made with one carries. */
export const ADMIN_SECURITY_SCHEMES = {
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator: ADMIN_TOKEN as a bearer token (scripts). Without ADMIN_TOKEN the admin API answers 404.',
  },
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'leadbase_session',
    description:
      'A console session, opened by POST /admin/session with ADMIN_TOKEN (the operator) or an API key (a customer, who sees only that key). Signed, HttpOnly, SameSite=Strict; it lasts 12 hours.',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: "Every change made with a session (any method but GET) carries the session's CSRF token, as sign-in answered it.",
  },
} as const;

export const ADMIN_TAG = {
  name: 'admin',
  description:
    "The operators' API behind the console: sign-in, keys and their credits, limits, usage and ledger, lists, sources, bootstrap, discovery, the audit log. The operator calls it with ADMIN_TOKEN as a bearer token or a console session; a customer's session sees only its own key.",
};

const Id = Type.Object({ id: Type.Integer({ minimum: 1, description: 'The id' }) });
const KeyAndJob = Type.Object({
  id: Type.Integer({ minimum: 1, description: "The key's id" }),
  job: Type.String({ description: "The list's id" }),
});
const Iso = Type.String({ format: 'date-time' });
const Credits = Type.Number({ minimum: 0, description: 'Credits' });

const Session = Type.Object({
  role: Type.Union([Type.Literal('operator'), Type.Literal('customer')]),
  key_id: Nullable(Type.Integer({ description: "A customer's key" })),
  csrf_token: Type.String({ description: 'Send it as X-CSRF-Token with every change' }),
});

const Key = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell it by' }),
  credits: Credits,
  created_at: Iso,
  revoked_at: Nullable(Iso),
  rate_limits: Type.Record(Type.String(), Type.Integer(), { description: "The key's own requests per minute, by operation" }),
});

const SpendCap = Type.Object({
  period: Type.Union([Type.Literal('day'), Type.Literal('month')]),
  cap: Credits,
  alert_at: Nullable(Credits),
  spent: Type.Optional(Credits),
  alert: Type.Optional(Type.Boolean({ description: 'Spent at least alert_at this period' })),
  reached: Type.Optional(Type.Boolean({ description: 'Spent the whole cap this period: charged calls are refused' })),
});

const RunCounts = Type.Object({
  read: Type.Integer(),
  inserted: Type.Integer(),
  updated: Type.Integer(),
  expired: Type.Integer(),
  refused: Type.Integer(),
});

const Source = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: 'A job-board ATS, feed, jsonld or a data-set kind' }),
  locator: Type.String(),
  base_url: Nullable(Type.String()),
  base_url_by_operator: Type.Boolean({ description: "The base_url is the operator's (a mirror)" }),
  company: Nullable(Type.Object({ id: Nullable(Type.Integer()), name: Nullable(Type.String()), website: Nullable(Type.String()) })),
  every: Type.String({ description: 'How often it is read, such as 6h' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('held')]),
  status_reason: Nullable(Type.String()),
  next_run_at: Nullable(Iso),
  last_success_at: Nullable(Iso),
  consecutive_failures: Type.Integer(),
  last_error: Nullable(Type.String()),
  last_counts: Nullable(RunCounts),
  failing: Type.Boolean(),
  discovered_from: Nullable(Type.String()),
  created_at: Iso,
});

const SourceInput = Type.Object({
  type: Type.String({ description: 'A job-board ATS (greenhouse, lever…), feed, jsonld or a data-set kind (GET /admin/source-types)' }),
  locator: Type.Optional(Type.String({ description: "Board token or link, feed or page URL, a data set's locator" })),
  base_url: Type.Optional(Nullable(Type.String({ description: "Replaces the upstream's origin (a mirror)" }))),
  company_name: Type.Optional(Nullable(Type.String())),
  company_website: Type.Optional(Nullable(Type.String())),
  every: Type.Optional(Nullable(Type.Union([Type.String(), Type.Integer()], { description: 'How often: 30m, 6h, 1d or milliseconds' }))),
  discovered_from: Type.Optional(Nullable(Type.String({ description: 'The page discovery found it on' }))),
  operator_base_url: Type.Optional(Type.Boolean({ description: "Whether base_url is the operator's (a mirror)" })),
});

const BulkList = Type.Object({
  id: Type.String(),
  status: Type.String({ description: 'queued, running, paused_no_credits, completed, cancelled or failed' }),
  total: Type.Integer(),
  duplicates: Type.Integer(),
  refused: Type.Integer(),
  processed: Type.Integer(),
  counts: Type.Record(Type.String(), Type.Integer(), { description: 'Results by status' }),
  credits_consumed: Credits,
  created_at: Iso,
  started_at: Nullable(Iso),
  finished_at: Nullable(Iso),
  eta_seconds: Nullable(Type.Integer({ description: 'Time left at the pace so far' })),
});

const BootstrapStep = Type.Object({
  name: Type.String({ description: 'A data-set kind (one source), boards or discovery' }),
  state: Type.Union(['waiting', 'running', 'done', 'failed', 'stopped'].map((s) => Type.Literal(s))),
  rows: Type.Integer({ description: 'Rows read and stored so far' }),
  done: Type.Integer({ description: 'Parts, boards or sites done' }),
  total: Nullable(Type.Integer({ description: 'Of how many, when known' })),
  unit: Type.Union([Type.Literal('parts'), Type.Literal('boards'), Type.Literal('sites')]),
  started_at: Nullable(Iso),
  finished_at: Nullable(Iso),
  registered: Type.Integer({ description: 'Sources of the step registered' }),
  failed: Type.Integer({ description: 'Sources of the step whose run failed' }),
  last_error: Nullable(Type.String({ description: 'The last failure, in words' })),
  rows_per_second: Nullable(Type.Integer()),
  eta_seconds: Nullable(Type.Integer({ description: 'Time left, when the total is known' })),
});

const Answer = Type.Object({
  endpoint: Type.String({ description: 'A data endpoint, such as /company-search' }),
  body: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'A request that finds something' })),
  reason: Nullable(Type.String({ description: 'Why nothing is found yet, and what brings the data' })),
  curl: Nullable(Type.String({ description: 'The request as a curl line (the key from $LEADBASE_API_KEY)' })),
});

const BootstrapState = Type.Object({
  run: Nullable(
    Type.Object({
      id: Type.String(),
      state: Type.Union(['running', 'done', 'interrupted', 'failed'].map((s) => Type.Literal(s))),
      started_at: Iso,
      finished_at: Nullable(Iso),
      options: Type.Object({
        only: Nullable(Type.Array(Type.String())),
        limit: Nullable(Type.Integer()),
        discover_limit: Nullable(Type.Integer()),
      }),
      steps: Type.Array(BootstrapStep),
      failures: Type.Array(Type.Object({ type: Type.String(), locator: Type.String(), error: Type.String() })),
      error: Nullable(Type.String({ description: 'Why the run could not run at all' })),
      answers: Nullable(Type.Array(Answer, { description: 'Once finished: what the service can answer now' })),
    }),
  ),
  mirrors: Type.Array(Type.String(), { description: 'The upstreams read from the operator’s mirrors (BOOTSTRAP_MIRRORS)' }),
  step_names: Type.Optional(Type.Array(Type.String(), { description: 'The steps `only` may name' })),
});

const Find = {
  source: SourceInput,
  registered_as: Nullable(Type.Integer({ description: 'The source already registered for it' })),
};

const Discovery = Type.Object({
  domain: Type.String(),
  outcome: Type.Union([Type.Literal('found'), Type.Literal('nothing_found'), Type.Literal('unreadable')]),
  message: Type.String({ description: 'The outcome in one sentence' }),
  pages_read: Type.Array(Type.String()),
  boards: Type.Array(
    Type.Object(
      { type: Type.String(), board: Type.String(), found_on: Type.String(), ...Find },
      { description: 'Send `source` to POST /admin/sources to register it' },
    ),
  ),
  jsonld_pages: Type.Array(Type.Object({ url: Type.String(), ...Find })),
  other_ats: Type.Array(Type.Object({ ats: Type.String(), url: Type.String(), found_on: Type.String() })),
  notes: Type.Array(Type.String({ description: 'What could not be read or told, in words (DNS, robots.txt, HTTP status)' })),
});

const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Iso,
  actor: Type.String(),
  ip: Nullable(Type.String()),
  action: Type.String(),
  target: Nullable(Type.String()),
  detail: Nullable(Type.Record(Type.String(), Type.Unknown())),
});

const Status = Type.Object(
  {
    stores: Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer()), { description: 'Companies, jobs and people: counts' }),
    sources: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Each source, stale first' }),
    queue: Type.Object({ depth: Type.Integer() }),
    database: Type.Object({ dialect: Type.String(), bytes: Nullable(Type.Integer()) }),
    empty: Type.Boolean({ description: 'No company, job or person is stored: the console offers the bootstrap' }),
    health: Type.Record(Type.String(), Type.String()),
    traffic: Type.Object({ bucket_minutes: Type.Integer(), buckets: Type.Array(Type.Record(Type.String(), Type.Unknown())) }),
  },
  { description: 'What `leadbase status` shows, the health of each dependency and this instance’s traffic' },
);

type Who = 'anyone' | 'caller' | 'operator';

interface AdminRouteSpec {
  summary: string;
  /** anyone (sign-in), caller (the operator, or a customer for its own key), operator. */
  who: Who;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** The success status (200 unless said) and its schema. */
  status?: 200 | 201 | 202;
  response: TSchema;
  /** CSV in place of JSON (or besides it, with ?format=csv). */
  csv?: 'only' | 'also';
  /** The refusals this route may answer besides those of every admin route. */
  errors?: { 400?: string; 404?: string; 409?: string; 429?: string };
}

const ID_400 = 'invalid_request: the id or the input breaks a rule, said in words';
const KEY_404 = 'not_found: no such key (or not the customer’s own)';

/** Every /admin route, by its operationId. */
const ADMIN_ROUTES = {
  adminSignIn: {
    summary: 'Sign in to the console: ADMIN_TOKEN opens an operator’s session, an API key a customer’s (sets the session cookie)',
    who: 'anyone',
    body: Type.Object({ token: Type.String({ description: 'ADMIN_TOKEN or an API key' }) }),
    response: Type.Intersect([Session, Type.Object({ expires_at: Iso })]),
    errors: { 400: 'invalid_request: no token sent', 429: 'rate_limited: too many sign-in attempts from this address (Retry-After)' },
  },
  adminGetSession: { summary: 'The session the cookie holds, with its CSRF token', who: 'caller', response: Session },
  adminSignOut: {
    summary: 'Sign out: the session cookie is cleared',
    who: 'anyone',
    response: Type.Object({ signed_out: Type.Literal(true) }),
  },
  adminGetStatus: {
    summary: 'What the install holds, the health of its dependencies, sources stale first',
    who: 'operator',
    response: Status,
  },
  adminListKeys: {
    summary: 'The keys (a customer: its own)',
    who: 'caller',
    response: Type.Object({ keys: Type.Array(Key) }),
  },
  adminCreateKey: {
    summary: 'Create a key; its secret is in this answer only',
    who: 'operator',
    body: Type.Object({ name: Type.String({ maxLength: 200 }), credits: Type.Optional(Type.Union([Type.Number(), Type.String()])) }),
    status: 201,
    response: Type.Object({ id: Type.Integer(), name: Type.String(), prefix: Type.String(), key: Type.String(), credits: Credits }),
    errors: { 400: ID_400 },
  },
  adminGetKey: { summary: 'One key', who: 'caller', params: Id, response: Key, errors: { 400: ID_400, 404: KEY_404 } },
  adminRevokeKey: {
    summary: 'Revoke a key: it is refused from now on',
    who: 'operator',
    params: Id,
    response: Key,
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGrantCredits: {
    summary: 'Grant credits to a key (written to its ledger with the note)',
    who: 'operator',
    params: Id,
    body: Type.Object({ credits: Type.Union([Type.Number(), Type.String()]), note: Type.Optional(Type.String({ maxLength: 500 })) }),
    response: Type.Object({ id: Type.Integer(), granted: Credits, credits: Credits }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGetKeyUsage: {
    summary: "A key's credits and calls per day and operation",
    who: 'caller',
    params: Id,
    query: Type.Object({
      days: Type.Optional(Type.Union([Type.Literal('7'), Type.Literal('30'), Type.Literal('90')], { description: 'Default 30' })),
    }),
    response: Type.Object({
      id: Type.Integer(),
      days: Type.Integer(),
      usage: Type.Array(
        Type.Object({ day: Type.String({ format: 'date' }), operation: Type.String(), calls: Type.Integer(), credits: Credits }),
      ),
    }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGetKeyLedger: {
    summary: "A key's ledger, newest first: JSON, or CSV with ?format=csv",
    who: 'caller',
    params: Id,
    query: Type.Object({
      format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Default 100' })),
    }),
    response: Type.Object({
      id: Type.Integer(),
      ledger: Type.Array(
        Type.Object({
          id: Type.Integer(),
          at: Iso,
          kind: Type.String({ description: 'grant, charge or refund' }),
          credits: Type.Number(),
          operation: Nullable(Type.String()),
          request_id: Nullable(Type.String()),
          note: Nullable(Type.String()),
        }),
      ),
    }),
    csv: 'also',
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGetKeyLimits: {
    summary: "A key's requests per minute by operation: the defaults and its own",
    who: 'caller',
    params: Id,
    response: Type.Object({
      id: Type.Integer(),
      defaults: Type.Record(Type.String(), Type.Integer()),
      own: Type.Record(Type.String(), Type.Integer()),
    }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminSetKeyLimit: {
    summary: "Set a key's own limit of one operation (per_minute null: back to the default)",
    who: 'operator',
    params: Id,
    body: Type.Object({ operation: Type.String(), per_minute: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 })) }),
    response: Type.Object({ id: Type.Integer(), own: Type.Record(Type.String(), Type.Integer()) }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGetWebhookSecret: {
    summary: "The secret that signs a key's bulk-list webhooks (made on first use)",
    who: 'operator',
    params: Id,
    response: Type.Object({ id: Type.Integer(), webhook_secret: Type.String() }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminRotateWebhookSecret: {
    summary: "Replace a key's webhook secret",
    who: 'operator',
    params: Id,
    response: Type.Object({ id: Type.Integer(), webhook_secret: Type.String() }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGetSpendCap: {
    summary: "A key's spend cap and what it spent this period (null: no cap)",
    who: 'caller',
    params: Id,
    response: Type.Object({ id: Type.Integer(), spend_cap: Nullable(SpendCap) }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminSetSpendCap: {
    summary: 'Set a key\'s spend cap per day or month, with an alert threshold; {"cap": null} removes it',
    who: 'operator',
    params: Id,
    body: Type.Object({
      period: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('month')])),
      cap: Nullable(Type.Union([Type.Number(), Type.String()])),
      alert_at: Type.Optional(Nullable(Type.Union([Type.Number(), Type.String()]))),
    }),
    response: Type.Object({ id: Type.Integer(), spend_cap: Nullable(SpendCap) }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminListSourceTypes: {
    summary: 'The kinds of source the registry takes',
    who: 'operator',
    response: Type.Object({ types: Type.Array(Type.String()) }),
  },
  adminListAudit: {
    summary: 'The audit log, newest first: every change made through the admin API',
    who: 'operator',
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Default 100' })),
      before: Type.Optional(Type.Integer({ description: 'An id of the previous page: the entries before it' })),
    }),
    response: Type.Object({ entries: Type.Array(AuditEntry) }),
  },
  adminPreviewList: {
    summary: 'What a CSV list holds and may cost, before anything is queued',
    who: 'caller',
    params: Id,
    body: Type.Object({ csv: Type.String({ description: 'The list, with a header row' }) }),
    response: Type.Object({
      header: Type.Array(Type.String()),
      email_column: Nullable(Type.Integer()),
      sample: Type.Array(Type.Array(Type.String())),
      rows: Type.Integer(),
      unique_addresses: Nullable(Type.Integer()),
      price_per_result: Credits,
      max_credits: Nullable(Credits),
    }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminPreviewBulk: {
    summary: "What a CSV list of a bulk product's rows holds and may cost at most, before POST /bulk queues it",
    who: 'caller',
    params: Id,
    body: Type.Object({
      product: Type.Union(
        BULK_PRODUCTS.map((p) => Type.Literal(p)),
        { description: 'The product of POST /bulk' },
      ),
      csv: Type.String({ description: 'The rows, with a header row naming the request fields' }),
    }),
    response: Type.Object({
      product: Type.String(),
      operation: Type.String({ description: 'The operation whose price rule charges each row' }),
      header: Type.Array(Type.String()),
      fields: Type.Array(Type.String(), { description: "The request fields a row of the product reads (the operation's body)" }),
      sample: Type.Array(Type.Array(Type.String())),
      rows: Type.Integer(),
      price_per_row: Credits,
      max_credits: Credits,
      rule: Type.String(),
    }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminCreateList: {
    summary: 'Queue a CSV list for validation on the key (charged per result, as POST /email-validate/bulk)',
    who: 'caller',
    params: Id,
    body: Type.Object({ csv: Type.String(), email_column: Type.Optional(Type.Integer({ minimum: 0 })) }),
    status: 202,
    response: BulkList,
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminListLists: {
    summary: "The key's lists, newest first",
    who: 'caller',
    params: Id,
    response: Type.Object({ lists: Type.Array(BulkList) }),
    errors: { 400: ID_400, 404: KEY_404 },
  },
  adminGetList: {
    summary: 'One list, with the time left',
    who: 'caller',
    params: KeyAndJob,
    response: BulkList,
    errors: { 400: ID_400, 404: 'not_found: no such list for this key' },
  },
  adminCancelList: {
    summary: 'Cancel a list: what was validated stays charged, the rest is not',
    who: 'caller',
    params: KeyAndJob,
    response: BulkList,
    errors: { 400: ID_400, 404: 'not_found: no such list for this key' },
  },
  adminGetListResults: {
    summary: "A list's results as CSV: its own columns, then every field of the single-address answer",
    who: 'caller',
    params: KeyAndJob,
    response: Type.String(),
    csv: 'only',
    errors: { 400: ID_400, 404: 'not_found: no such list for this key' },
  },
  adminListSources: {
    summary: 'The sources registered',
    who: 'operator',
    query: Type.Object({
      status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('held')])),
      type: Type.Optional(Type.String()),
    }),
    response: Type.Object({ sources: Type.Array(Source) }),
    errors: { 400: ID_400 },
  },
  adminAddSources: {
    summary: 'Register a source (201 when new, 200 when it was registered already), or many with {"sources": [...]}',
    who: 'operator',
    body: Type.Union([SourceInput, Type.Object({ sources: Type.Array(SourceInput, { maxItems: 10_000 }) })]),
    status: 201,
    response: Type.Union([
      Type.Intersect([Source, Type.Object({ created: Type.Boolean(), updated: Type.Boolean() })]),
      Type.Object({
        read: Type.Integer(),
        added: Type.Integer(),
        updated: Type.Integer(),
        existing: Type.Integer(),
        refused: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() })),
      }),
    ]),
    errors: { 400: ID_400 },
  },
  adminGetSource: {
    summary: 'One source, with its latest runs',
    who: 'operator',
    params: Id,
    response: Type.Intersect([Source, Type.Object({ runs: Type.Array(Type.Record(Type.String(), Type.Unknown())) })]),
    errors: { 400: ID_400, 404: 'not_found: no such source' },
  },
  adminRemoveSource: {
    summary: 'Remove a source (what it brought stays)',
    who: 'operator',
    params: Id,
    response: Type.Object({ id: Type.Integer(), removed: Type.Literal(true) }),
    errors: { 400: ID_400, 404: 'not_found: no such source' },
  },
  adminPauseSource: {
    summary: 'Pause a source: it is not run until resumed',
    who: 'operator',
    params: Id,
    response: Source,
    errors: { 400: ID_400, 404: 'not_found: no such source' },
  },
  adminResumeSource: {
    summary: 'Resume a paused or held source',
    who: 'operator',
    params: Id,
    response: Source,
    errors: { 400: ID_400, 404: 'not_found: no such source' },
  },
  adminRunSource: {
    summary: 'Run a source now and answer with what the run did',
    who: 'operator',
    params: Id,
    query: Type.Object({ allow_mass_expiry: Type.Optional(Type.Boolean({ description: 'Let the run expire most of the listings' })) }),
    response: Type.Object({
      source: Type.Integer(),
      outcome: Type.String(),
      counts: RunCounts,
      error: Nullable(Type.String()),
    }),
    errors: { 400: ID_400, 404: 'not_found: no such source', 409: 'source_busy: another instance is running it now' },
  },
  getBootstrap: {
    summary: 'The bootstrap going on (or the last one): each step’s progress, failures in words, then what the service can answer',
    who: 'operator',
    response: BootstrapState,
  },
  startBootstrap: {
    summary: 'Start a bootstrap in the background, as `leadbase bootstrap` (mirrors and boards list are the operator’s settings)',
    who: 'operator',
    body: Type.Object({
      only: Type.Optional(
        Nullable(Type.Array(Type.String(), { description: 'Steps: the data-set kinds, boards, discovery; all by default' })),
      ),
      limit: Type.Optional(
        Nullable(Type.Integer({ minimum: 1, description: 'A quick sample: boards, parts per data set and sites at most' })),
      ),
      discover_limit: Type.Optional(
        Nullable(Type.Integer({ minimum: 0, description: 'Company sites discovery reads at most (default 100)' })),
      ),
    }),
    status: 202,
    response: BootstrapState,
    errors: { 400: ID_400, 409: 'bootstrap_running: a bootstrap is running already' },
  },
  stopBootstrap: {
    summary: 'Stop the bootstrap between parts: what it stored is kept, and a new one resumes',
    who: 'operator',
    response: BootstrapState,
    errors: { 409: 'bootstrap_not_running: no bootstrap is running' },
  },
  discoverSite: {
    summary: "Find a company's job boards on its site now (robots.txt honoured, bounded); registers nothing",
    who: 'operator',
    body: Type.Object({
      domain: Type.String({ maxLength: 300, description: 'A domain such as acme.com, or the address of the site' }),
      max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, description: 'Pages read at most (default 12)' })),
    }),
    response: Discovery,
    errors: { 400: ID_400 },
  },
  adminGetExplore: {
    summary: 'What the Explore screen may call: each operation’s path, request schema and price rule',
    who: 'caller',
    response: Type.Object({
      call_as_header: Type.String({ description: 'The header that names the key a console call is made as' }),
      operations: Type.Array(
        Type.Object({
          id: Type.String(),
          method: Type.String(),
          path: Type.String(),
          summary: Type.String(),
          tag: Type.String(),
          body: Type.Unknown({ description: 'The operation’s request schema' }),
          price: Type.Record(Type.String(), Type.Unknown()),
        }),
      ),
    }),
  },
  adminQuoteExplore: {
    summary: 'The most a call with this body can cost, by the operation’s price rule (the price shown before the call)',
    who: 'caller',
    body: Type.Object({ operation: Type.String(), body: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
    response: Type.Object({
      operation: Type.String(),
      most_credits: Credits,
      items: Type.Optional(Type.Integer()),
      each_credits: Type.Optional(Credits),
      rule: Type.String(),
    }),
    errors: { 400: ID_400 },
  },
} satisfies Record<string, AdminRouteSpec>;

type AdminRouteId = keyof typeof ADMIN_ROUTES;

/** The operationId of every /admin route. */
export const ADMIN_OPERATION_IDS = Object.keys(ADMIN_ROUTES) as AdminRouteId[];

const error = (description: string) => ({ ...ErrorResponse, description });

/**
 * A route's options: its OpenAPI description under the admin tag, its security and every status it
 * may answer. Validation and serialization stay the handler's (see the top of this file).
 */
export function adminRoute(id: AdminRouteId) {
  const spec: AdminRouteSpec = ADMIN_ROUTES[id];
  const change =
    spec.body !== undefined ||
    [
      'adminRevokeKey',
      'adminRotateWebhookSecret',
      'adminRemoveSource',
      'adminPauseSource',
      'adminResumeSource',
      'adminRunSource',
      'stopBootstrap',
      'adminCancelList',
    ].includes(id);
  const success = spec.status ?? 200;
  const json = { ...spec.response, description: 'The result' };
  const response: Record<string, unknown> = {
    [success]:
      spec.csv === 'only'
        ? { description: 'The CSV', content: { 'text/csv': { schema: { type: 'string' } } } }
        : spec.csv === 'also'
          ? {
              description: 'The result (CSV with ?format=csv)',
              content: { 'application/json': { schema: spec.response }, 'text/csv': { schema: { type: 'string' } } },
            }
          : json,
    500: error('internal_error: an unexpected fault'),
    503: error('unavailable: the database is unreachable for now'),
  };
  if (id === 'adminAddSources') response[200] = { ...spec.response, description: 'Registered already, or the summary of many' };
  if (spec.who !== 'anyone') {
    response[401] = error('missing_admin_token, invalid_admin_token or session_expired: no valid token or session');
    response[403] = error(
      spec.who === 'operator'
        ? "forbidden (a customer's session) or csrf_token_invalid (a change without the session's X-CSRF-Token)"
        : "csrf_token_invalid: a change without the session's X-CSRF-Token",
    );
    response[404] = error(
      spec.errors?.[404]
        ? `${spec.errors[404]}; or the admin API is off (no ADMIN_TOKEN)`
        : 'not_found: the admin API is off (no ADMIN_TOKEN)',
    );
  } else if (id === 'adminSignIn') response[401] = error('sign_in_refused: the token is neither ADMIN_TOKEN nor a live API key');
  for (const status of [400, 409, 429] as const) if (spec.errors?.[status]) response[status] = error(spec.errors[status]);
  if (spec.body) response[413] = error('payload_too_large: the request body is larger than allowed');
  if (spec.body || id === 'adminSignOut') response[415] = error('unsupported_media_type: the body is not JSON');
  const security: Record<string, string[]>[] =
    spec.who === 'anyone'
      ? []
      : change
        ? [{ adminToken: [] }, { adminSession: [], csrfToken: [] }]
        : [{ adminToken: [] }, { adminSession: [] }];
  return {
    schema: {
      operationId: id,
      summary: spec.summary,
      tags: [ADMIN_TAG.name],
      security,
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response,
    },
    // The handler checks its input itself and answers in words; its answer is sent as it made it.
    validatorCompiler: () => () => true,
    serializerCompiler: () => (data: unknown) => JSON.stringify(data),
  };
}
