import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/**
 * A test-only charged route that goes through the real auth, rate-limit, idempotency and billing
 * plugins: it "finds" `{ echo }` and charges `cost` millicredits, optionally after a delay.
 */
export function registerChargeRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  let served = 0;
  app.decorate('chargeRouteServed', () => served);
  app.post(
    '/test/charge',
    {
      schema: {
        body: Type.Object({
          cost: Type.Integer({ minimum: 0 }),
          delayMs: Type.Optional(Type.Integer()),
          echo: Type.Optional(Type.String()),
        }),
        response: {
          200: Type.Object({ echo: Type.Union([Type.String(), Type.Null()]), served: Type.Integer(), credits_consumed: Type.Number() }),
        },
      },
      config: { auth: true, operation: 'test-charge' },
    },
    async (request, reply) => {
      if (request.body.delayMs) await sleep(request.body.delayMs);
      served += 1;
      return reply.settle(request.body.cost, { echo: request.body.echo ?? null, served });
    },
  );
}
