import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { JobsFinderBody, JobSearchResult } from '../../contract/jobs.ts';
import type { Services } from '../../services.ts';
import { OPERATIONS, PRICE_OF, routeOptions, type Answer } from '../operations.ts';

export async function findJobs(services: Services, request: JobsFinderBody): Promise<Answer<JobSearchResult>> {
  const result = await services.jobs.search(request);
  // A page past the end serves nothing and costs nothing (docs/contract.md, Not found).
  return { cost: PRICE_OF['jobs-finder'](result), body: result };
}

export default async function jobsFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(OPERATIONS['jobs-finder'].path, routeOptions('jobs-finder'), async (request, reply) => {
    const { cost, body } = await findJobs(app.services, request.body);
    return reply.settle(cost, body);
  });
}
