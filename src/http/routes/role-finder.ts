import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RoleFinderBody, RoleFinderResponse } from '../../contract/people.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { notImplemented, requireNonBlank, requireOneOf } from '../errors.ts';

export default async function roleFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/role-finder',
    {
      schema: {
        summary: 'Find who holds a job title at a company (2 credits when found)',
        tags: ['people'],
        body: RoleFinderBody,
        response: { 200: RoleFinderResponse, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'role-finder' },
    },
    async (request) => {
      requireNonBlank(request.body, 'job_title');
      requireOneOf(request.body, ['company_name', 'company_domain']);
      throw notImplemented('Role finder');
    },
  );
}
