import { Type } from '@sinclair/typebox';
import { Nullable, Text } from './common.ts';
import { BULK_JOB_STATUSES } from './email-bulk.ts';

// Bulk jobs of every product (docs/bulk.md): a list of rows for one product, each answered and
// charged as its single call would be.

/** The products a bulk job runs, in the names LeadMagic's clients send. */
export const BULK_PRODUCTS = ['email_finder', 'email_validation', 'mobile_finder', 'company_search', 'profile_search'] as const;
/** Most rows one job holds. */
export const MAX_BULK_ROWS = 100_000;

export const BulkSubmitBody = Type.Object(
  {
    product: Type.Union(
      BULK_PRODUCTS.map((p) => Type.Literal(p)),
      { description: 'Which operation answers each row' },
    ),
    rows: Type.Optional(
      Type.Array(Type.Unknown(), {
        maxItems: MAX_BULK_ROWS,
        description:
          "The rows: each one the product's single request body (a row that cannot be read is refused on its own, with its reason)",
      }),
    ),
    csv: Type.Optional(
      Text({
        maxLength: 64 * 1024 * 1024,
        description: 'The rows as CSV text instead: a header naming the request fields, one row per line',
      }),
    ),
    callback: Type.Optional(
      Text({
        maxLength: 2048,
        description:
          "A URL (http or https, on a public address) that is POSTed the job's figures when it ends (done, failed or cancelled), signed with the key's webhook secret",
      }),
    ),
    webhook_url: Type.Optional(Text({ maxLength: 2048, description: 'The same as callback, under our name (give one, or both equal)' })),
    fileUrl: Type.Optional(
      Text({
        maxLength: 2048,
        description:
          'The rows as a file at a public http(s) URL instead: CSV, a JSON array or JSON Lines (by its Content-Type, else its first bytes and name), up to 64 MiB; fetched once, on submit',
      }),
    ),
    // Last: a wrong value here is reported after the fields above.
    inputMapping: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Text({ maxLength: 200 }), {
        maxProperties: 100,
        description:
          'Which column (CSV header name or row key) fills which request field, when they are not named as the fields: {"<column>": "<field>"} ({"<field>": "<column>"} is read too when every key is a field). A field the product does not take is refused.',
      }),
    ),
  },
  { title: 'BulkSubmitRequest', description: 'Exactly one of rows, csv and fileUrl; inputMapping optional.' },
);

const ColumnMapping = Type.Object({ column: Type.String(), field: Type.String() });

const RowError = Type.Object({
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
});

export const BulkJobResponse = Type.Object(
  {
    id: Type.String(),
    job_id: Type.String({ description: 'The same id, under the name LeadMagic clients read' }),
    product: Type.String(),
    operation: Type.String({
      description: "The operation whose price rule charges each row (its ledger rows are named '<operation>-bulk')",
    }),
    status: Type.Union(BULK_JOB_STATUSES.map((s) => Type.Literal(s))),
    total: Type.Integer({ description: 'Rows submitted' }),
    refused: Type.Integer({ description: 'Rows that could not be read or answered: each answered with its reason, free' }),
    processed: Type.Integer({ description: 'Rows answered, charged and available so far (refused ones included)' }),
    found: Type.Integer({ description: 'Rows whose answer found something' }),
    credits_consumed: Type.Number({ description: 'Credits charged so far: the sum of each row at its single-call price' }),
    refusals: Type.Array(Type.Object({ reason: Type.String(), rows: Type.Integer() }), {
      description: 'Why rows were refused, most frequent first',
    }),
    failure_reason: Nullable(Type.String({ description: 'Why the job failed (its retries ran out); null unless failed' })),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'BulkJob' },
);

export const BulkJobList = Type.Object({ jobs: Type.Array(BulkJobResponse) }, { title: 'BulkJobList' });

export const BulkRow = Type.Object(
  {
    row_index: Type.Integer({ description: 'The row’s position in the submitted list, from 0' }),
    status: Type.Union([Type.Literal('success'), Type.Literal('not_found'), Type.Literal('refused')]),
    input: Type.Unknown({ description: 'The row as read' }),
    output: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: "The single call's answer, credits_consumed included" })),
    credits_consumed: Type.Number(),
    error: Nullable(RowError),
    lm_input: Type.Unknown({ description: 'The same as input, under the name LeadMagic clients read' }),
    lm_output: Nullable(
      Type.Record(Type.String(), Type.Unknown(), { description: 'The same as output, under the name LeadMagic clients read' }),
    ),
  },
  { title: 'BulkRow' },
);

/** A whole number in a query string (its values are text). */
const Digits = (description: string) => Type.String({ pattern: '^[0-9]{1,9}$', description });

export const BulkRowsQuery = Type.Object({
  offset: Type.Optional(Digits('The first row_index to return (default 0)')),
  limit: Type.Optional(Digits('Rows per page, 1 to 10000 (default 1000)')),
});

export const BulkRowsPage = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Union(BULK_JOB_STATUSES.map((s) => Type.Literal(s))),
    rows: Type.Array(BulkRow, { description: 'Charged rows in list order: rows not yet charged are not served' }),
    next_offset: Nullable(Type.Integer({ description: 'The offset of the next page, null when this page is the last so far' })),
  },
  { title: 'BulkRowsPage' },
);

export const BulkDownload = Type.String({
  description:
    'Every charged row so far, in list order, as CSV: row_index, status, credits_consumed, error, then the input fields and the answer fields of the product.',
});

export const BulkEvent = Type.Object(
  {
    event: Type.Union(['created', 'started', 'paused', 'resumed', 'restarted', 'done', 'failed', 'cancelled'].map((e) => Type.Literal(e))),
    reason: Nullable(
      Type.String({ description: 'paused: credits, spend_cap or owner; resumed: credits or owner; failed: the error; cancelled: owner' }),
    ),
    status: Type.Union(
      BULK_JOB_STATUSES.map((s) => Type.Literal(s)),
      { description: "The job's status right after the event" },
    ),
    processed: Type.Integer(),
    found: Type.Integer(),
    credits_consumed: Type.Number(),
    at: Type.String({ format: 'date-time' }),
  },
  { title: 'BulkJobEvent' },
);

export const BulkEventsPage = Type.Object(
  {
    job_id: Type.String(),
    status: Type.Union(BULK_JOB_STATUSES.map((s) => Type.Literal(s))),
    events: Type.Array(BulkEvent, { description: "The job's history, oldest first, each with the job's figures at that instant" }),
  },
  { title: 'BulkJobEvents' },
);

export const BulkStream = Type.String({
  description:
    'Server-Sent Events (text/event-stream): a `progress` event with the job (processed, found, credits_consumed, status…) whenever it changes, a comment line as heartbeat, and an `end` event with the job once it has ended, after which the stream closes.',
});
export const BulkReviewResponse = Type.Object(
  {
    product: Type.String(),
    operation: Type.String({ description: 'The operation whose price rule would charge each row' }),
    total: Type.Integer({ description: 'Rows in the list' }),
    readable: Type.Integer({
      description: "Rows read as the product's request (a rule the answer checks, such as 'domain or company_name', may still refuse some)",
    }),
    refused: Type.Integer({ description: 'Rows that cannot be read: the job would refuse them, free' }),
    refusals: Type.Array(Type.Object({ reason: Type.String(), rows: Type.Integer() }), {
      description: "Why rows are refused, most frequent first (the job's refusals)",
    }),
    errors: Type.Array(Type.Object({ row_index: Type.Integer(), error: RowError }), { description: 'The first 100 refused rows' }),
    sample: Type.Array(Type.Object({ row_index: Type.Integer(), input: Type.Record(Type.String(), Type.Unknown()) }), {
      description: 'The first 5 readable rows, as the job would read them',
    }),
    columns: Type.Array(Type.String(), { description: "The list's columns (CSV header names, or the rows' keys)" }),
    mapping: Type.Array(ColumnMapping, { description: 'The inputMapping applied, as column → field pairs' }),
    unused_columns: Type.Array(Type.String(), { description: 'Columns no request field is read from' }),
    price_per_row: Type.Number({ description: 'The most one row can cost (credits): its operation’s price when found' }),
    max_credits: Type.Number({ description: 'The most the job can cost: price_per_row × readable rows' }),
    rule: Type.String({ description: "The operation's price rule in words" }),
  },
  { title: 'BulkReview', description: 'What a submit of the same body would queue; nothing is stored, queued or charged.' },
);

// Insights on the jobs (docs/bulk.md, "Metrics, logs, capabilities, progress").

const JobStatus = Type.Union(BULK_JOB_STATUSES.map((s) => Type.Literal(s)));

export const BulkListQuery = Type.Object({
  status: Type.Optional(
    Type.String({
      pattern: `^(${BULK_JOB_STATUSES.join('|')})(,(${BULK_JOB_STATUSES.join('|')}))*$`,
      description: `Only jobs in these statuses, comma-separated (${BULK_JOB_STATUSES.join(', ')})`,
    }),
  ),
  product: Type.Optional(
    Type.Union(
      BULK_PRODUCTS.map((p) => Type.Literal(p)),
      { description: 'Only jobs of this product' },
    ),
  ),
  limit: Type.Optional(Digits('Jobs per page, 1 to 100 (default 100)')),
  offset: Type.Optional(Digits('Jobs to skip, newest first (default 0)')),
});

export const BulkJobMetrics = Type.Object(
  {
    job_id: Type.String(),
    product: Type.String(),
    status: JobStatus,
    total: Type.Integer({ description: 'Rows submitted' }),
    processed: Type.Integer({ description: 'Rows answered, charged and served so far (refused ones included)' }),
    found: Type.Integer(),
    refused: Type.Integer(),
    remaining: Type.Integer({ description: 'Rows not served yet' }),
    credits_consumed: Type.Number(),
    rows_per_second_last_minute: Nullable(Type.Number({ description: 'Rows served per second over the last minute of work' })),
    rows_per_second_overall: Nullable(Type.Number({ description: 'Rows served per second of working time (paused time left out)' })),
    eta_seconds: Nullable(
      Type.Integer({ description: 'Seconds until every row is served at the recent pace; null when paused, ended or not started' }),
    ),
    paused_seconds: Type.Number({ description: 'Time spent paused (by its owner or for credits)' }),
    running_seconds: Type.Number({ description: 'Time of work: from its start to its end (or now), paused time left out' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
    measured_at: Type.String({ format: 'date-time' }),
  },
  { title: 'BulkJobMetrics' },
);

export const BulkLogsQuery = Type.Object({
  offset: Type.Optional(Digits('The first line to return (default 0)')),
  limit: Type.Optional(Digits('Lines per page, 1 to 10000 (default 1000)')),
});

export const BulkLogsPage = Type.Object(
  {
    job_id: Type.String(),
    status: JobStatus,
    lines: Type.Array(
      Type.Object({
        line: Type.Integer({ description: "The line's place in the log, from 0" }),
        at: Nullable(Type.String({ format: 'date-time', description: 'When it happened; null for a refused row' })),
        level: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
        event: Nullable(Type.String({ description: 'The event it tells (created, started, paused…); null for a refused row' })),
        row_index: Nullable(Type.Integer({ description: "A refused row's row_index; null for an event" })),
        message: Type.String(),
      }),
      { description: "The job's events in words, oldest first, then each served refused row with its reason, in list order" },
    ),
    next_offset: Nullable(Type.Integer({ description: 'The offset of the next page, null when this page is the last so far' })),
  },
  { title: 'BulkJobLogs' },
);

export const BulkCapabilities = Type.Object(
  {
    max_rows: Type.Integer({ description: 'Most rows one job holds' }),
    inputs: Type.Array(Type.Object({ field: Type.String(), description: Nullable(Type.String()) }), {
      description: "The submit's body fields besides product (rows, csv, callback…), read from its schema",
    }),
    statuses: Type.Array(Type.String(), { description: 'The statuses a job goes through' }),
    products: Type.Array(
      Type.Object({
        product: Type.String(),
        operation: Type.String({ description: 'The operation whose single call a row is' }),
        fields: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), description: Nullable(Type.String()) }), {
          description: "The request's fields (a row is read in every form the single call accepts)",
        }),
        price_rule: Type.String({ description: "The single call's price rule, applied to each row" }),
        credits_when_charged: Type.Number({ description: 'Credits a row costs when it is charged (its smallest non-zero charge)' }),
        max_rows: Type.Integer(),
      }),
    ),
  },
  { title: 'BulkCapabilities' },
);

export const BulkProgress = Type.Object(
  {
    jobs: Type.Array(BulkJobMetrics, { description: "The key's jobs not ended (queued, running, paused), newest first, up to 100" }),
    totals: Type.Object({
      jobs: Type.Integer(),
      total: Type.Integer(),
      processed: Type.Integer(),
      remaining: Type.Integer(),
      credits_consumed: Type.Number(),
    }),
    measured_at: Type.String({ format: 'date-time' }),
  },
  { title: 'BulkProgress' },
);
