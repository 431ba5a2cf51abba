// Bulk jobs of every product (docs/bulk.md): rows in (JSON, CSV text or a file's URL), a review of
// them before any is queued, a job id out; its
// progress, its charged rows a page at a time or as one CSV file, its refused rows, cancelling it.
// Every path, ours and LeadMagic's spellings, comes from the operation descriptors.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import sjson from 'secure-json-parse';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import { OPERATIONS, isOperationId } from '../../../operations/catalogue.ts';
import { routeOptions } from '../../route-options.ts';
import { BulkInputError, BulkStateError, type BulkJobView, type BulkRowView } from '../../../bulk/service.ts';
import { webhookUrlProblem } from '../../../net/webhooks.ts';
import { streamJob } from '../../bulk-stream.ts';
import { operationRoute } from '../../operation-route.ts';
import { listFilterOf } from './bulk-insights.ts';
import { bulkOperationOf } from '../../../operations/bulk-products.ts';
import { csvLine } from '../../../csv/write.ts';
import { withOriginalNamesSchema } from '../../../contract/original-names.ts';
import {
  bulkInputFailure,
  bulkListOfForm,
  FILE_UNSUPPORTED,
  readBulkList,
  SCRAPE_UNSUPPORTED,
  type BulkListBody,
} from '../../bulk-input.ts';
import { formParts } from '../../multipart.ts';
import { reviewRows } from '../../../bulk/review.ts';
import { rowQuoteOf } from '../../price-quote.ts';
import { unitsToCredits } from '../../../billing/units.ts';

/** 100,000 rows of a few fields each. */
const BULK_BODY_LIMIT = 64 * 1024 * 1024;
const DEFAULT_PAGE = 1000;
const MAX_PAGE = 10_000;

const notFound = () => new AppError(404, 'not_found', 'No bulk job with this id for this key.');

type SubmitBody = BulkListBody & { callback?: string; webhook_url?: string };
type ById = { Params: { id: string }; Querystring: { offset?: string; limit?: string } };

/** The URL the job's end is announced at: `callback` (LeadMagic's name) or `webhook_url` (ours), checked. */
function callbackOf(body: SubmitBody): string | undefined {
  const { callback, webhook_url } = body;
  if (callback !== undefined && webhook_url !== undefined && callback !== webhook_url) {
    throw new InvalidRequestError('callback and webhook_url name the same URL: give one of them (or both equal).', [
      { field: '/webhook_url', message: 'differs from callback' },
    ]);
  }
  const url = callback ?? webhook_url;
  const field = callback !== undefined ? 'callback' : 'webhook_url';
  const problem = url === undefined ? null : webhookUrlProblem(url, field);
  if (problem) throw new InvalidRequestError(`${problem}.`, [{ field: `/${field}`, message: problem }]);
  return url;
}

/** A served row, with the same input and output under the names LeadMagic's clients read. */
const withLeadMagicNames = (row: BulkRowView) => ({ ...row, lm_input: row.input, lm_output: row.output });

/** The CSV columns of a job's rows: where each row stands, then the request's fields, then the answer's (prefixed where a name repeats). */
function csvColumns(operation: string): { input: string[]; output: string[]; header: string[] } {
  const op = isOperationId(operation) ? OPERATIONS[operation] : undefined;
  const input = Object.keys((op as { body?: TObject } | undefined)?.body?.properties ?? {});
  const response = op ? (withOriginalNamesSchema(op.response) as TObject) : undefined;
  const output = Object.keys(response?.properties ?? {}).filter((k) => k !== 'credits_consumed');
  const header = [
    'row_index',
    'status',
    'credits_consumed',
    'error',
    ...input,
    ...output.map((k) => (input.includes(k) ? `result_${k}` : k)),
  ];
  return { input, output, header };
}

export default async function bulkRoutes(fastify: FastifyInstance): Promise<void> {
  // In this plugin only: large bodies.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BULK_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, sjson.parse(body, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new AppError(400, 'invalid_request', 'Request body is not valid JSON.'), undefined);
    }
  });
  // POST /bulk/file's form: one character a byte, its parts read by hand (http/multipart.ts).
  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: BULK_BODY_LIMIT }, (_request, body, done) =>
    done(null, (body as Buffer).toString('latin1')),
  );
  const app = fastify;
  const jobs = () => app.services.bulkJobs;
  const keyOf = (request: FastifyRequest) => request.apiKey!.id;

  operationRoute(
    app,
    'bulk-submit',
    async (request, reply) => {
      const body = request.body as SubmitBody;
      const callbackUrl = callbackOf(body);
      const origin = `${request.protocol}://${request.host}`;
      try {
        const list = await readBulkList(app.services, body);
        const job = await jobs().create(keyOf(request), body.product, list.rows, {
          callbackUrl,
          resultsUrl: (id) => `${origin}/bulk/${id}/results`,
        });
        return reply.code(202).send(job);
      } catch (error) {
        if (error instanceof BulkInputError) throw bulkInputFailure(error);
        throw error;
      }
    },
    { bodyLimit: BULK_BODY_LIMIT },
  );

  // The same body as a submit, read as the job would read it: nothing is stored, queued or charged.
  operationRoute(
    app,
    'bulk-review',
    async (request) => {
      const body = request.body as BulkListBody;
      try {
        const list = await readBulkList(app.services, body);
        const product = jobs().product(body.product);
        const review = reviewRows(product, list.rows, list);
        const quote = rowQuoteOf(bulkOperationOf(body.product));
        return {
          product: body.product,
          operation: product.operation,
          ...review,
          price_per_row: unitsToCredits(quote.most),
          max_credits: unitsToCredits(quote.most * review.readable),
          rule: quote.rule,
        };
      } catch (error) {
        if (error instanceof BulkInputError) throw bulkInputFailure(error);
        throw error;
      }
    },
    { bodyLimit: BULK_BODY_LIMIT },
  );

  // LeadMagic's browser crawl: refused before its body is read, naming what to send instead.
  const scrapeRefused = new InvalidRequestError(SCRAPE_UNSUPPORTED, [{ field: '/scrape', message: 'not supported' }]);
  app.post('/bulk/scrape', {
    ...routeOptions('bulk-submit'),
    schema: { hide: true },
    onRequest: async () => {
      throw scrapeRefused;
    },
    handler: async () => {
      throw scrapeRefused;
    },
  });

  // A list's file as multipart/form-data: read into a submit's body, then submitted as one.
  app.post('/bulk/file', { ...routeOptions('bulk-submit'), schema: { hide: true }, bodyLimit: BULK_BODY_LIMIT }, async (request, reply) => {
    if (typeof request.body !== 'string') throw new AppError(415, 'unsupported_media_type', FILE_UNSUPPORTED);
    try {
      let parts;
      try {
        parts = formParts(request.body, String(request.headers['content-type']));
      } catch (error) {
        // An unreadable form, or an upload session's: what the call takes, and the other ways to send a list.
        if (error instanceof AppError) throw new InvalidRequestError(`${error.message} ${FILE_UNSUPPORTED}`, error.details);
        throw error;
      }
      const body = bulkListOfForm(parts);
      const list = await readBulkList(app.services, body);
      return reply.code(202).send(await jobs().create(keyOf(request), body.product, list.rows));
    } catch (error) {
      if (error instanceof BulkInputError) throw bulkInputFailure(error);
      throw error;
    }
  });

  operationRoute(app, 'bulk-list', async (request) => ({
    jobs: await jobs().list(
      keyOf(request),
      listFilterOf((request as FastifyRequest<{ Querystring: Parameters<typeof listFilterOf>[0] }>).query),
    ),
  }));

  operationRoute(app, 'bulk-status', async (request) => {
    const { id } = (request as FastifyRequest<ById>).params;
    return (await jobs().get(keyOf(request), id)) ?? Promise.reject(notFound());
  });

  operationRoute(app, 'bulk-cancel', async (request) => {
    const { id } = (request as FastifyRequest<ById>).params;
    return (await jobs().cancel(keyOf(request), id)) ?? Promise.reject(notFound());
  });

  /** A lifecycle call: the job after it; 404 for no such job, 409 when its state does not allow it. */
  const lifecycle = (call: (keyId: number, id: string) => Promise<BulkJobView | null>) => async (request: FastifyRequest) => {
    const { id } = (request as FastifyRequest<ById>).params;
    try {
      return (await call(keyOf(request), id)) ?? Promise.reject(notFound());
    } catch (error) {
      if (error instanceof BulkStateError) throw new AppError(409, 'invalid_state', error.message);
      throw error;
    }
  };
  operationRoute(
    app,
    'bulk-cancel-job',
    lifecycle((keyId, id) => jobs().cancel(keyId, id)),
  );
  operationRoute(
    app,
    'bulk-pause',
    lifecycle((keyId, id) => jobs().pause(keyId, id)),
  );
  operationRoute(
    app,
    'bulk-resume',
    lifecycle((keyId, id) => jobs().resume(keyId, id)),
  );
  operationRoute(
    app,
    'bulk-restart',
    lifecycle((keyId, id) => jobs().restart(keyId, id)),
  );

  operationRoute(app, 'bulk-events', async (request) => {
    const { id } = (request as FastifyRequest<ById>).params;
    const history = await jobs().events(keyOf(request), id);
    if (!history) throw notFound();
    return { job_id: history.job.id, status: history.job.status, events: history.events };
  });

  // Open streams end when the server shuts down (before it waits for its connections to close).
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());
  operationRoute(app, 'bulk-stream', async (request, reply) => {
    const { id } = (request as FastifyRequest<ById>).params;
    const keyId = keyOf(request);
    const job = await jobs().get(keyId, id);
    if (!job) throw notFound();
    if (closing.signal.aborted) throw new AppError(503, 'unavailable', 'The server is shutting down.', undefined, { 'retry-after': '1' });
    await streamJob(request, reply, job, () => jobs().get(keyId, id), jobs().streamTiming, closing.signal);
  });

  const page = (refusedOnly: boolean) => async (request: FastifyRequest) => {
    const { params, query } = request as FastifyRequest<ById>;
    const offset = Number(query.offset ?? 0);
    const limit = Number(query.limit ?? DEFAULT_PAGE);
    if (limit < 1 || limit > MAX_PAGE) {
      throw new InvalidRequestError(`limit must be 1 to ${MAX_PAGE}.`, [{ field: '/limit', message: `must be 1 to ${MAX_PAGE}` }]);
    }
    const results = await jobs().results(keyOf(request), params.id, { offset, limit, refusedOnly });
    if (!results) throw notFound();
    const rows: ReturnType<typeof withLeadMagicNames>[] = [];
    for await (const row of results.rows) rows.push(withLeadMagicNames(row));
    return {
      job_id: results.job.id,
      status: results.job.status,
      rows,
      next_offset: rows.length === limit ? rows[rows.length - 1].row_index + 1 : null,
    };
  };
  operationRoute(app, 'bulk-results', page(false));
  operationRoute(app, 'bulk-errors', page(true));

  operationRoute(app, 'bulk-download', async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = (request as FastifyRequest<ById>).params;
    const results = await jobs().results(keyOf(request), id);
    if (!results) throw notFound();
    const { input, output, header } = csvColumns(results.job.operation);
    async function* lines() {
      yield csvLine(header);
      for await (const row of results!.rows) {
        const given = (row.input ?? {}) as Record<string, unknown>;
        const answer = row.output ?? {};
        yield csvLine([
          row.row_index,
          row.status,
          row.credits_consumed,
          row.error?.message ?? '',
          ...input.map((k) => given[k]),
          ...output.map((k) => answer[k]),
        ]);
      }
    }
    reply.type('text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${results.job.id}.csv"`);
    // A stream is sent as it is read: a large job's rows are never built in memory.
    return reply.send(Readable.from(lines()));
  });
}
