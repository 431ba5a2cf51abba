// Bulk validation jobs (docs/email.md, "Bulk lists"): a list in (JSON or CSV), a job id out; its
// progress, its results streamed as they are charged, and cancelling it.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parse as parseCsv } from 'csv-parse/sync';
import sjson from 'secure-json-parse';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import { operationRoute } from '../../operation-route.ts';
import type { TObject } from '@sinclair/typebox';
import { EmailValidateResponse } from '../../../contract/email.ts';
import { withOriginalNamesSchema } from '../../../contract/original-names.ts';
import { BulkInputError, type BulkEntry } from '../../../email/bulk.ts';
import { CSV_READ_OPTIONS, emailColumnOf, headerKey } from '../../../email/list-csv.ts';
import { csvLine } from '../../../csv/write.ts';
import { webhookUrlProblem } from '../../../net/webhooks.ts';

/** A million addresses with names or a few other columns. */
const BULK_BODY_LIMIT = 256 * 1024 * 1024;
/**
 * Every field of the single-address answer, in its order, the original API's names beside ours
 * (company_linkedin_url beside company_prof_url…) as /email-validate answers them: the results'
 * columns after the list's own.
 */
export const RESULT_FIELDS = Object.keys((withOriginalNamesSchema(EmailValidateResponse) as TObject).properties);

const notFound = () => new AppError(404, 'not_found', 'No bulk job with this id for this key.');

interface ParsedList {
  entries: BulkEntry[];
  columns: string[];
}

function listFromJson(body: unknown): ParsedList & { webhookUrl?: unknown } {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { emails?: unknown }).emails)) {
    throw new InvalidRequestError(
      'Send {"emails": [...]} (addresses, or objects with email, first_name and last_name), or a text/csv list.',
      [{ field: '/emails', message: 'must be an array' }],
    );
  }
  const { emails, webhook_url } = body as { emails: unknown[]; webhook_url?: unknown };
  const entries = emails.map((item): BulkEntry => {
    if (typeof item === 'string') return { email: item };
    if (typeof item !== 'object' || item === null) return { email: undefined };
    const { email, first_name, last_name } = item as Record<string, unknown>;
    const entry: BulkEntry = { email };
    if (typeof first_name === 'string') entry.first_name = first_name;
    if (typeof last_name === 'string') entry.last_name = last_name;
    return entry;
  });
  return { entries, columns: [], webhookUrl: webhook_url };
}

/** "email (column 3)": a column told apart by its place (1 for the first), as the console names it. */
const byPlace = (name: string, i: number) => `${name} (column ${i + 1})`;

/**
 * The address column: the one chosen, else the first whose header names an address. When several
 * columns carry that same name ("email" twice), the one holding addresses is taken; if more than one
 * does, the list is refused, naming them, rather than guessing.
 */
function addressColumnOf(header: readonly string[], data: readonly string[][], chosen?: number): number {
  if (chosen !== undefined && chosen < header.length) return chosen;
  const first = emailColumnOf(header);
  if (first < 0) return -1;
  const same = header.flatMap((name, i) => (headerKey(name) === headerKey(header[first]) ? [i] : []));
  if (same.length === 1) return first;
  const holding = same.filter((i) => data.some((fields) => (fields[i] ?? '').includes('@')));
  if (holding.length <= 1) return holding[0] ?? first;
  throw new InvalidRequestError(
    `The CSV list has ${holding.length} columns named "${header[first]}" holding addresses (${holding.map((i) => byPlace(header[i], i)).join(', ')}): ` +
      'keep one of them, or name the one to validate with ?email_column=<its index, from 0>.',
    [{ field: '/email_column', message: 'several address columns' }],
  );
}

/**
 * A CSV list; `chosenColumn` names the address column by its index when the header's name does not
 * tell it. Every other column is kept under its own name; one whose name was already taken (a
 * repeated header, or "email" beside the address column) is kept as "email (column 3)".
 */
export function listFromCsv(text: string, chosenColumn?: number): ParsedList {
  let rows: string[][];
  try {
    rows = parseCsv(text, CSV_READ_OPTIONS);
  } catch (error) {
    throw new InvalidRequestError(`The CSV list cannot be read: ${(error as Error).message}`);
  }
  const [header = [], ...data] = rows;
  const emailColumn = addressColumnOf(header, data, chosenColumn);
  if (emailColumn < 0) throw new InvalidRequestError(`The CSV list has no "email" column in its header (${header.join(', ')}).`);
  // The entry's own address field is "email": no other column may take that name.
  const taken = new Set(['email']);
  const names = header.map((name, i) => {
    if (i === emailColumn) return name;
    const kept = taken.has(name) ? byPlace(name, i) : name;
    taken.add(kept);
    return kept;
  });
  const columns = names.filter((_, i) => i !== emailColumn);
  const entries = data.map((fields) => {
    const entry: BulkEntry = { email: fields[emailColumn] };
    names.forEach((name, i) => {
      if (i !== emailColumn) entry[name] = fields[i] ?? '';
    });
    return entry;
  });
  return { entries, columns };
}

/** The `email_column` of the query (a CSV list's address column, by its index from 0), when given. */
function chosenColumnOf(query: unknown): number | undefined {
  const value = (query as Record<string, unknown> | undefined)?.email_column;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value))
    throw new InvalidRequestError('email_column must be the index of a column of the header, from 0.', [
      { field: '/email_column', message: 'must be a whole number' },
    ]);
  return Number(value);
}

export default async function emailBulkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // In this plugin only: large bodies, and CSV lists beside JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BULK_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, sjson.parse(body, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new AppError(400, 'invalid_request', 'Request body is not valid JSON.'), undefined);
    }
  });
  app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: BULK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  const keyOf = (request: FastifyRequest) => request.apiKey!.id;

  operationRoute(
    fastify,
    'email-validate-bulk',
    async (request, reply) => {
      const csv = typeof request.body === 'string';
      const list = csv ? listFromCsv(request.body as string, chosenColumnOf(request.query)) : listFromJson(request.body);
      const webhookUrl = csv ? (request.query as Record<string, unknown>).webhook_url : (list as { webhookUrl?: unknown }).webhookUrl;
      if (webhookUrl !== undefined && webhookUrl !== null) {
        const problem = typeof webhookUrl === 'string' ? webhookUrlProblem(webhookUrl) : 'webhook_url must be a string';
        if (problem) throw new InvalidRequestError(`${problem}.`, [{ field: '/webhook_url', message: problem }]);
      }
      const origin = `${request.protocol}://${request.host}`;
      try {
        const job = await app.services.bulk.create(keyOf(request), list.entries, {
          columns: list.columns,
          webhookUrl: typeof webhookUrl === 'string' ? webhookUrl : undefined,
          resultsUrl: (id) => `${origin}/email-validate/bulk/${id}/results`,
        });
        // The route's schema says 200 to the type provider; the descriptor documents 202 (accepted).
        (reply as unknown as { code(n: number): { send(b: unknown): void } }).code(202).send(job);
        return reply;
      } catch (error) {
        if (error instanceof BulkInputError) throw new InvalidRequestError(error.message);
        throw error;
      }
    },
    { bodyLimit: BULK_BODY_LIMIT },
  );

  operationRoute(fastify, 'email-validate-bulk-status', async (request) => {
    return (await app.services.bulk.get(keyOf(request), request.params.id)) ?? Promise.reject(notFound());
  });

  operationRoute(fastify, 'email-validate-bulk-cancel', async (request) => {
    return (await app.services.bulk.cancel(keyOf(request), request.params.id)) ?? Promise.reject(notFound());
  });

  operationRoute(fastify, 'email-validate-bulk-results', async (request, reply) => {
    const results = await app.services.bulk.results(keyOf(request), request.params.id);
    if (!results) throw notFound();
    const asCsv = (request.headers.accept ?? '').includes('text/csv');
    const columns = results.columns.filter((c) => !RESULT_FIELDS.includes(c));
    async function* lines() {
      if (asCsv) yield csvLine([...columns, ...RESULT_FIELDS]);
      for await (const row of results!.rows) {
        yield asCsv ? csvLine([...columns.map((c) => row[c]), ...RESULT_FIELDS.map((f) => row[f])]) : `${JSON.stringify(row)}\n`;
      }
    }
    reply.type(asCsv ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
    // A stream is sent as it is read: a million rows are never built in memory.
    (reply as unknown as { send(b: Readable): void }).send(Readable.from(lines()));
    return reply;
  });
}
