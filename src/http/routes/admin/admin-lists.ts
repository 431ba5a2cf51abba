// Lists in the console (docs/console.md, "Lists"): a key's bulk validation jobs, run through the same
// service as POST /email-validate/bulk. The operator may run a list on any key; a customer on its own.
// Lists of the other bulk products are sent to POST /bulk itself (as the Explore screen calls the
// API); here they are only read and priced before they are sent.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseCsv } from 'csv-parse/sync';
import { adminRoute } from '../../../contract/admin.ts';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import type { AdminCaller } from '../../admin-access.ts';
import { BulkInputError, type BulkJobView } from '../../../email/bulk.ts';
import { CSV_READ_OPTIONS, emailColumnOf } from '../../../email/list-csv.ts';
import { csvLine, csvRecord } from '../../../csv/write.ts';
import { PRICES } from '../../../billing/prices.ts';
import { unitsToCredits } from '../../../billing/units.ts';
import { listFromCsv, RESULT_FIELDS } from '../api/email-bulk.ts';
import { BULK_PRODUCTS } from '../../../contract/bulk.ts';
import { OPERATIONS } from '../../../operations/catalogue.ts';
import { bulkOperationOf } from '../../../operations/bulk-products.ts';
import { rowQuoteOf } from '../../price-quote.ts';

/** A list pasted or dropped in a browser: tens of thousands of rows at most. */
const LIST_BODY_LIMIT = 16 * 1024 * 1024;
const SAMPLE_ROWS = 5;

function keyIdOf(request: FastifyRequest): number {
  const id = Number((request.params as { id?: string }).id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidRequestError('The key id must be a positive whole number.');
  const caller = request.adminCaller as AdminCaller;
  if (caller.role === 'customer' && caller.keyId !== id) throw new AppError(404, 'not_found', `No key with id ${id}.`);
  return id;
}

/**
 * The list as CSV. `{"csv"}` is a file with a header row; `{"addresses"}` is pasted text, addresses
 * separated by line breaks, commas or semicolons, read as a one-column list headed "email" (empty
 * pieces are dropped, as blank lines of a file are).
 */
function csvOf(body: unknown): string {
  const { csv, addresses } = (body ?? {}) as { csv?: unknown; addresses?: unknown };
  if (typeof addresses === 'string' && addresses.trim()) {
    const pieces = addresses
      .split(/[\r\n,;]+/)
      .map((a) => a.trim())
      .filter(Boolean);
    return ['email\n', ...pieces.map((a) => csvRecord([a]))].join('');
  }
  if (typeof csv !== 'string' || !csv.trim())
    throw new InvalidRequestError('Send {"csv": "<the list, with a header row>"} or {"addresses": "<addresses, one a line>"}.');
  return csv;
}

/** The optional `email_column` of a body: the index of a column of the header. */
function chosenColumnOf(body: unknown): number | undefined {
  const chosen = (body as { email_column?: unknown } | undefined)?.email_column;
  if (chosen !== undefined && chosen !== null && (!Number.isSafeInteger(chosen) || (chosen as number) < 0))
    throw new InvalidRequestError('email_column must be the index of a column of the header.');
  return (chosen ?? undefined) as number | undefined;
}

/**
 * The list with its other columns renamed where their header is a field of the answer ("email",
 * "email_status"…), e.g. "email (column 1)": the address column chosen stays the one validated, and
 * their values stay in the results instead of being taken for the answer's own fields.
 */
function withOtherColumnsKept(csv: string, chosen: number | undefined): string {
  let rows: string[][];
  try {
    rows = parseCsv(csv, CSV_READ_OPTIONS);
  } catch {
    return csv; // reported as the bulk API reports it
  }
  const [header] = rows;
  if (!header) return csv;
  const column = chosen !== undefined && chosen < header.length ? chosen : emailColumnOf(header);
  const clashes = (name: string, i: number) => i !== column && RESULT_FIELDS.includes(name);
  if (!header.some(clashes)) return csv;
  rows[0] = header.map((name, i) => (clashes(name, i) ? `${name} (column ${i + 1})` : name));
  return rows.map(csvRecord).join('');
}

/** A job as the console shows it: the bulk API's view and an estimate of the time left. */
function withEta(job: BulkJobView, now = Date.now()) {
  const started = job.started_at ? Date.parse(job.started_at) : null;
  const left = job.total - job.processed;
  const eta_seconds =
    started && job.processed > 0 && left > 0 && job.status === 'running'
      ? Math.ceil((((now - started) / job.processed) * left) / 1000)
      : null;
  return { ...job, eta_seconds };
}

export default async function adminListsRoutes(app: FastifyInstance): Promise<void> {
  const notFound = () => new AppError(404, 'not_found', 'No list with this id for this key.');

  // What the list holds and what it may cost, before anything is queued.
  app.post('/admin/keys/:id/lists/preview', { ...adminRoute('adminPreviewList'), bodyLimit: LIST_BODY_LIMIT }, async (request) => {
    keyIdOf(request);
    let rows: string[][];
    try {
      rows = parseCsv(csvOf(request.body), CSV_READ_OPTIONS);
    } catch (error) {
      throw new InvalidRequestError(`The CSV list cannot be read: ${(error as Error).message}`);
    }
    const [header = [], ...data] = rows;
    const chosen = chosenColumnOf(request.body);
    const column = chosen !== undefined && chosen < header.length ? chosen : emailColumnOf(header);
    // Read as the bulk service reads a list: trimmed, compared without case, blanks refused.
    const cells = column >= 0 ? data.map((row) => (row[column] ?? '').trim().toLowerCase()) : [];
    const blank = cells.filter((c) => !c).length;
    const addresses = new Set(cells.filter(Boolean));
    const perResult = PRICES.emailValidationCharged;
    return {
      header,
      email_column: column >= 0 ? column : null,
      sample: data.slice(0, SAMPLE_ROWS),
      rows: data.length,
      // Known once the column is: the addresses of that column, each once.
      unique_addresses: column >= 0 ? addresses.size : null,
      // Rows left out of the job, free: a repeated address, or none in the column.
      duplicates: column >= 0 ? cells.length - blank - addresses.size : null,
      blank: column >= 0 ? blank : null,
      price_per_result: unitsToCredits(perResult),
      // Charged per result that is valid, invalid or a catch-all; unknowns are free.
      max_credits: column >= 0 ? unitsToCredits(perResult * addresses.size) : null,
    };
  });

  // A list of another bulk product: its rows read as POST /bulk reads a csv, and the most it can
  // cost (every row found, at its operation's price rule), before the console sends it there.
  app.post('/admin/keys/:id/bulk/preview', { ...adminRoute('adminPreviewBulk'), bodyLimit: LIST_BODY_LIMIT }, async (request) => {
    keyIdOf(request);
    const { product, csv } = (request.body ?? {}) as { product?: unknown; csv?: unknown };
    if (typeof product !== 'string' || !(BULK_PRODUCTS as readonly string[]).includes(product))
      throw new InvalidRequestError(`product must be one of ${BULK_PRODUCTS.join(', ')}.`, [
        { field: '/product', message: 'unknown product' },
      ]);
    if (typeof csv !== 'string' || !csv.trim())
      throw new InvalidRequestError('Send {"product", "csv": "<the rows, with a header row>"}.', [{ field: '/csv', message: 'is empty' }]);
    const operation = bulkOperationOf(product as (typeof BULK_PRODUCTS)[number]);
    // Read as POST /bulk reads its csv: a header, then one row a line (empty lines skipped).
    let lines: string[][];
    try {
      lines = parseCsv(csv, CSV_READ_OPTIONS);
    } catch (error) {
      throw new InvalidRequestError(`The CSV cannot be read: ${(error as Error).message}`, [{ field: '/csv', message: 'is not CSV' }]);
    }
    const [header = [], ...data] = lines;
    const quote = rowQuoteOf(operation);
    return {
      product,
      operation,
      header,
      fields: Object.keys((OPERATIONS[operation].body as { properties?: object } | undefined)?.properties ?? {}),
      sample: data.slice(0, SAMPLE_ROWS),
      rows: data.length,
      price_per_row: unitsToCredits(quote.most),
      max_credits: unitsToCredits(quote.most * data.length),
      rule: quote.rule,
    };
  });

  app.post('/admin/keys/:id/lists', { ...adminRoute('adminCreateList'), bodyLimit: LIST_BODY_LIMIT }, async (request, reply) => {
    const keyId = keyIdOf(request);
    const chosen = chosenColumnOf(request.body);
    const list = listFromCsv(withOtherColumnsKept(csvOf(request.body), chosen), chosen);
    try {
      const job = await app.services.bulk.create(keyId, list.entries, { columns: list.columns });
      reply.status(202);
      return withEta(job);
    } catch (error) {
      if (error instanceof BulkInputError) throw new InvalidRequestError(error.message);
      throw error;
    }
  });

  // The key's lists, newest first.
  app.get('/admin/keys/:id/lists', adminRoute('adminListLists'), async (request) => {
    const keyId = keyIdOf(request);
    const ids = await app.services.db
      .selectFrom('email_bulk_jobs')
      .select('id')
      .where('key_id', '=', keyId)
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    const jobs = await Promise.all(ids.map((row) => app.services.bulk.get(keyId, row.id)));
    return { lists: jobs.filter((job): job is BulkJobView => job !== null).map((job) => withEta(job)) };
  });

  app.get('/admin/keys/:id/lists/:job', adminRoute('adminGetList'), async (request) => {
    const job = await app.services.bulk.get(keyIdOf(request), (request.params as { job: string }).job);
    if (!job) throw notFound();
    return withEta(job);
  });

  app.delete('/admin/keys/:id/lists/:job', adminRoute('adminCancelList'), async (request) => {
    const job = await app.services.bulk.cancel(keyIdOf(request), (request.params as { job: string }).job);
    if (!job) throw notFound();
    return withEta(job);
  });

  // The results as CSV: the list's own columns, then every field of the single-address answer.
  app.get('/admin/keys/:id/lists/:job/results.csv', adminRoute('adminGetListResults'), async (request, reply) => {
    const jobId = (request.params as { job: string }).job;
    const results = await app.services.bulk.results(keyIdOf(request), jobId);
    if (!results) throw notFound();
    const columns = results.columns.filter((c) => !RESULT_FIELDS.includes(c));
    async function* lines() {
      yield csvLine([...columns, ...RESULT_FIELDS]);
      for await (const row of results!.rows) yield csvLine([...columns.map((c) => row[c]), ...RESULT_FIELDS.map((f) => row[f])]);
    }
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${jobId}.csv"`);
    return reply.send(Readable.from(lines()));
  });
}
