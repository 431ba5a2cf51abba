import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { JobsFinderBody, JobsFinderResponse } from '../../contract/jobs.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { PRICES } from '../../billing/prices.ts';

export default async function jobsFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/jobs-finder',
    {
      schema: {
        summary: 'Search job listings (1 credit per returned job)',
        tags: ['jobs'],
        body: JobsFinderBody,
        response: { 200: JobsFinderResponse, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'jobs-finder', minimumCharge: PRICES.jobsFinderPerJob },
    },
    async (request, reply) => {
      const result = await app.services.jobs.search(request.body);
      // A page past the end serves nothing and costs nothing (docs/contract.md, Not found).
      return reply.settle(PRICES.jobsFinderPerJob * result.results.length, result);
    },
  );
}
