import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { JobsFinderBody, JobsFinderResponse } from '../../contract/jobs.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { notImplemented } from '../errors.ts';

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
    async () => {
      throw notImplemented('Jobs finder');
    },
  );
}
