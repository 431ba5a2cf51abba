import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { JobsFinderBody, JobsFinderResponse } from '../../contract/jobs.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { PRICES } from '../../billing/prices.ts';
import { InvalidRequestError } from '../errors.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function requireDate(body: Record<string, unknown>, field: string): void {
  const value = body[field];
  if (value === undefined) return;
  const ok = typeof value === 'string' && DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
  if (!ok) throw new InvalidRequestError(`${field} must be a date written YYYY-MM-DD.`, [{ field: `/${field}`, message: 'must be a calendar date YYYY-MM-DD' }]);
}

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
      config: { auth: true, operation: 'jobs-finder' },
    },
    async (request, reply) => {
      requireDate(request.body, 'posted_after');
      requireDate(request.body, 'posted_before');
      const result = await app.services.jobs.search(request.body);
      // A page past the end serves nothing and costs nothing (decisions.md).
      return reply.settle(PRICES.jobsFinderPerJob * result.results.length, result);
    },
  );
}
