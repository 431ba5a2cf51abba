// The Fastify side of an operation of the catalogue (src/operations/catalogue.ts): its route
// options, OpenAPI names and documented answers. What an operation is lives in the catalogue; how
// Fastify serves it lives here.
import type { TObject, TSchema } from '@sinclair/typebox';
import { OPERATIONS, type BodyOf, type Operation, type OperationBase, type OperationId } from '../operations/catalogue.ts';
import { withOriginalNamesSchema } from '../contract/original-names.ts';
import { IdempotencyHeaders, responsesOf } from './responses.ts';
import { EXAMPLES } from './examples.ts';

type ParamsOf<Id extends OperationId> = Operation<Id> extends { params: infer P extends TObject } ? P : undefined;
type QueryOf<Id extends OperationId> = Operation<Id> extends { query: infer Q extends TObject } ? Q : undefined;

/** The OpenAPI operationId: the descriptor's id in camelCase, prefixed by the method when one descriptor serves several. */
function operationIdOf(id: string, method?: string): string {
  const camel = id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return method ? `${method.toLowerCase()}${camel[0].toUpperCase()}${camel.slice(1)}` : camel;
}

/**
 * Another surface's route onto an operation (the LeadMagic v1 paths): its own body and response
 * schemas and OpenAPI names, the operation's limits, prices and ledger.
 */
export interface AliasSurface {
  path: string;
  operationId: string;
  tag: string;
  response: TSchema;
  body?: TObject;
}

/**
 * The Fastify route options of an operation: its schemas (the TypeBox types flow into the
 * handler), summary and tag, and the config the auth, rate-limit and billing plugins read.
 */
export function routeOptions<const Id extends OperationId>(id: Id, method?: OperationBase['methods'][number], alias?: AliasSurface) {
  const op: OperationBase = OPERATIONS[id];
  // An operation served on several methods documents each one's answers (`method` picks it).
  const as = method ?? op.methods[0];
  const example = EXAMPLES[`${as} ${alias?.path ?? op.path}`];
  const withExample = <S extends TSchema>(schema: S | undefined, value: unknown): S | undefined =>
    schema && value !== undefined ? { ...schema, examples: [value] } : schema;
  const body = withExample(alias ? (alias.body ?? op.body) : op.body, example?.request);
  return {
    schema: {
      // Stable names for generated clients: emailValidate, getCredits / postCredits.
      operationId: alias?.operationId ?? operationIdOf(id, op.methods.length > 1 ? as : undefined),
      summary: op.summary,
      description: op.charge ? `Charge: ${op.charge.rule}.` : undefined,
      tags: [alias?.tag ?? op.tag],
      // Only operations with a body declare one (Fastify warns about a GET with a body schema).
      ...((body && as !== 'GET' ? { body } : {}) as { body: BodyOf<Id> }),
      ...((op.params ? { params: op.params } : {}) as { params: ParamsOf<Id> }),
      ...((op.query ? { querystring: op.query } : {}) as { querystring: QueryOf<Id> }),
      ...(as === 'POST' && !op.rawAnswer ? { headers: IdempotencyHeaders } : {}),
      // Exactly the statuses the operation can answer with, their headers (an accepted operation
      // documents 202 in place of 200; its handler sets the code).
      // Our own paths answer with the original API's field names beside the contract's (contract/original-names.ts).
      response: responsesOf(withExample(alias?.response ?? withOriginalNamesSchema(op.response), example?.response)!, {
        method: as,
        charged: Boolean(op.charge),
        // An accepted operation reads its own body (a JSON or CSV list).
        hasInput: Boolean(body || op.params || op.query || op.accepted),
        byId: Boolean(op.params),
        accepted: Boolean(op.accepted),
        rawAnswer: Boolean(op.rawAnswer),
        successDescription: op.accepted ? 'Accepted: the work is queued' : op.charge ? `The result. ${op.charge.rule}.` : 'The result',
      }) as unknown as { 200: Operation<Id>['response'] },
    },
    config: { auth: true, operation: id, minimumCharge: op.charge?.minimum, ...(op.rawAnswer ? { rawAnswer: true } : {}) },
  };
}
