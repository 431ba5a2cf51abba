// Insights on bulk jobs (docs/bulk.md, "Metrics, logs, capabilities, progress"): a job's metrics and
// log, what a job can run, the key's jobs in progress, and the list's filters. Free reads, the
// owner's only (another key's job is 404), every path from the operation descriptors.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TObject, TSchema } from '@sinclair/typebox';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import { OPERATIONS } from '../../../operations/catalogue.ts';
import { operationRoute } from '../../operation-route.ts';
import { bulkOperationOf } from '../../../operations/bulk-products.ts';
import { BULK_PRODUCTS, BulkSubmitBody, MAX_BULK_ROWS } from '../../../contract/bulk.ts';
import { BULK_JOB_STATUSES } from '../../../contract/email-bulk.ts';
import { jobLogs, jobMetrics } from '../../../bulk/job-metrics.ts';
import type { BulkListFilter } from '../../../bulk/service.ts';
import type { BulkJobStatus } from '../../../email/tables.ts';

const DEFAULT_LOG_PAGE = 1000;
const MAX_LOG_PAGE = 10_000;
const MAX_LIST_PAGE = 100;
/** The states of a job not ended, which GET /bulk/progress lists. */
const ACTIVE: readonly BulkJobStatus[] = ['queued', 'running', 'paused', 'paused_insufficient_credits'];

const notFound = () => new AppError(404, 'not_found', 'No bulk job with this id for this key.');

type ById = { Params: { id: string }; Querystring: { offset?: string; limit?: string } };
type ListQuery = { status?: string; product?: string; limit?: string; offset?: string };

/** A whole number of the query string in its bounds, or a 400 naming the field. */
function bounded(value: string | undefined, field: string, fallback: number, min: number, max: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new InvalidRequestError(`${field} must be ${min} to ${max}.`, [{ field: `/${field}`, message: `must be ${min} to ${max}` }]);
  }
  return n;
}

/** GET /bulk's filters (`status` comma-separated, `product`, `limit`, `offset`); a bad value is a 400 naming its field. */
export function listFilterOf(query: ListQuery): BulkListFilter {
  const statuses = query.status?.split(',').map((s) => s.trim());
  const unknown = statuses?.find((s) => !(BULK_JOB_STATUSES as readonly string[]).includes(s));
  if (unknown !== undefined) {
    throw new InvalidRequestError(`status must be one of ${BULK_JOB_STATUSES.join(', ')}.`, [
      { field: '/status', message: `must be one of ${BULK_JOB_STATUSES.join(', ')}` },
    ]);
  }
  if (query.product !== undefined && !(BULK_PRODUCTS as readonly string[]).includes(query.product)) {
    throw new InvalidRequestError(`product must be one of ${BULK_PRODUCTS.join(', ')}.`, [
      { field: '/product', message: `must be one of ${BULK_PRODUCTS.join(', ')}` },
    ]);
  }
  return {
    statuses: statuses as BulkJobStatus[] | undefined,
    product: query.product,
    limit: bounded(query.limit, 'limit', MAX_LIST_PAGE, 1, MAX_LIST_PAGE),
    offset: bounded(query.offset, 'offset', 0, 0, 1_000_000_000),
  };
}

const typeOf = (schema: TSchema): string =>
  typeof schema.type === 'string'
    ? schema.type
    : Array.isArray(schema.anyOf)
      ? [...new Set((schema.anyOf as TSchema[]).map(typeOf))].join(' | ')
      : 'any';
const describe = (schema: TSchema): string | null => (typeof schema.description === 'string' ? schema.description : null);

/** Every product with its operation, request fields, price rule and row limit, and the submit's inputs. */
function capabilities() {
  const submit = BulkSubmitBody.properties as Record<string, TSchema>;
  return {
    max_rows: MAX_BULK_ROWS,
    inputs: Object.entries(submit)
      .filter(([field]) => field !== 'product')
      .map(([field, schema]) => ({ field, description: describe(schema) })),
    statuses: [...BULK_JOB_STATUSES],
    products: BULK_PRODUCTS.map((product) => {
      const operation = bulkOperationOf(product);
      const op = OPERATIONS[operation];
      const body = op.body as TObject;
      return {
        product,
        operation,
        fields: Object.entries(body.properties as Record<string, TSchema>).map(([name, schema]) => ({
          name,
          type: typeOf(schema),
          description: describe(schema),
        })),
        price_rule: op.charge.rule,
        credits_when_charged: op.charge.minimum / 1000,
        max_rows: MAX_BULK_ROWS,
      };
    }),
  };
}

export default async function bulkInsightsRoutes(app: FastifyInstance): Promise<void> {
  const jobs = () => app.services.bulkJobs;
  const keyOf = (request: FastifyRequest) => request.apiKey!.id;
  const now = () => Date.now();

  operationRoute(app, 'bulk-metrics', async (request) => {
    const { id } = (request as FastifyRequest<ById>).params;
    const job = await jobs().get(keyOf(request), id);
    if (!job) throw notFound();
    return jobMetrics(app.services.db, job, now());
  });

  operationRoute(app, 'bulk-logs', async (request) => {
    const { params, query } = request as FastifyRequest<ById>;
    const offset = bounded(query.offset, 'offset', 0, 0, 1_000_000_000);
    const limit = bounded(query.limit, 'limit', DEFAULT_LOG_PAGE, 1, MAX_LOG_PAGE);
    const job = await jobs().get(keyOf(request), params.id);
    if (!job) throw notFound();
    const page = await jobLogs(app.services.db, job, { offset, limit });
    return { job_id: job.id, status: job.status, ...page };
  });

  // The same for every key and every call: built once.
  const capable = capabilities();
  operationRoute(app, 'bulk-capabilities', async () => capable);

  operationRoute(app, 'bulk-progress', async (request) => {
    const at = now();
    const active = await jobs().list(keyOf(request), { statuses: ACTIVE, limit: MAX_LIST_PAGE });
    const figures = await Promise.all(active.map((job) => jobMetrics(app.services.db, job, at)));
    const sum = (pick: (m: (typeof figures)[number]) => number) => figures.reduce((total, m) => total + pick(m), 0);
    return {
      jobs: figures,
      totals: {
        jobs: figures.length,
        total: sum((m) => m.total),
        processed: sum((m) => m.processed),
        remaining: sum((m) => m.remaining),
        credits_consumed: Math.round(sum((m) => m.credits_consumed) * 1000) / 1000,
      },
      measured_at: new Date(at).toISOString(),
    };
  });
}
