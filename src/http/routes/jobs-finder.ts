import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OPERATIONS, PRICE_OF, routeOptions } from '../operations.ts';

export default async function jobsFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(OPERATIONS['jobs-finder'].path, routeOptions('jobs-finder'), async (request, reply) => {
    const result = await app.services.jobs.search(request.body);
    // A page past the end serves nothing and costs nothing (docs/contract.md, Not found).
    return reply.settle(PRICE_OF['jobs-finder'](result), result);
  });
}
