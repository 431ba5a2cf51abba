// Bulk validation jobs (docs/email.md, "Bulk lists"): a list in (JSON or CSV), a job id out; its
// progress, its results streamed as they are charged, and cancelling it.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parse as parseCsv } from 'csv-parse/sync';
import sjson from 'secure-json-parse';
import { AppError, InvalidRequestError } from '../errors.ts';
import { OPERATIONS, routeOptions } from '../operations.ts';
import { EmailValidateResponse } from '../../contract/email.ts';
import { BulkInputError, type BulkEntry } from '../../email/bulk.ts';
import { CSV_READ_OPTIONS, csvLine, emailColumnOf } from '../../email/list-csv.ts';
import { webhookUrlProblem } from '../../net/webhooks.ts';

/** A million addresses with names or a few other columns. */
const BULK_BODY_LIMIT = 256 * 1024 * 1024;
/** Every field of the single-address answer, in its order: the results' columns after the list's own. */
export const RESULT_FIELDS = Object.keys(EmailValidateResponse.properties);

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

/** A CSV list; `chosenColumn` names the address column by its index when the header's name does not tell it. */
export function listFromCsv(text: string, chosenColumn?: number): ParsedList {
  let rows: string[][];
  try {
    rows = parseCsv(text, CSV_READ_OPTIONS);
  } catch (error) {
    throw new InvalidRequestError(`The CSV list cannot be read: ${(error as Error).message}`);
  }
  const [header, ...data] = rows;
  const emailColumn =
    chosenColumn !== undefined && header && chosenColumn < header.length ? chosenColumn : header ? emailColumnOf(header) : -1;
  if (emailColumn < 0) throw new InvalidRequestError(`The CSV list has no "email" column in its header (${(header ?? []).join(', ')}).`);
  const columns = header.filter((_, i) => i !== emailColumn);
  const entries = data.map((fields) => {
    const entry: BulkEntry = { email: fields[emailColumn] };
    header.forEach((name, i) => {
      if (i !== emailColumn) entry[name] = fields[i] ?? '';
    });
    return entry;
  });
  return { entries, columns };
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

  app.post(
    OPERATIONS['email-validate-bulk'].path,
    { ...routeOptions('email-validate-bulk'), bodyLimit: BULK_BODY_LIMIT },
    async (request, reply) => {
      const csv = typeof request.body === 'string';
      const list = csv ? listFromCsv(request.body as string) : listFromJson(request.body);
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
  );

  app.get(OPERATIONS['email-validate-bulk-status'].path, routeOptions('email-validate-bulk-status'), async (request) => {
    return (await app.services.bulk.get(keyOf(request), request.params.id)) ?? Promise.reject(notFound());
  });

  app.delete(OPERATIONS['email-validate-bulk-cancel'].path, routeOptions('email-validate-bulk-cancel'), async (request) => {
    return (await app.services.bulk.cancel(keyOf(request), request.params.id)) ?? Promise.reject(notFound());
  });

  app.get(OPERATIONS['email-validate-bulk-results'].path, routeOptions('email-validate-bulk-results'), async (request, reply) => {
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
