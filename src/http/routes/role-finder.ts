import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RoleFinderBody, RoleFinderResponse } from '../../contract/people.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { PRICES } from '../../billing/prices.ts';
import { requireNonBlank, requireOneOf } from '../errors.ts';

const FOUND = 'Role found.';
const NOT_FOUND = 'Role not found.';

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
      config: { auth: true, operation: 'role-finder', minimumCharge: PRICES.roleFinderFound },
    },
    async (request, reply) => {
      const jobTitle = requireNonBlank(request.body, 'job_title');
      requireOneOf(request.body, ['company_name', 'company_domain']);
      const found = await app.services.people.findRole({
        job_title: jobTitle,
        company_name: request.body.company_name?.trim() || null,
        company_domain: request.body.company_domain?.trim() || null,
      });
      if (!found) {
        return reply.settle(0, {
          name: null,
          profile_url: null,
          first_name: null,
          last_name: null,
          company_name: null,
          company_website: null,
          message: NOT_FOUND,
        });
      }
      return reply.settle(PRICES.roleFinderFound, { ...found, message: FOUND });
    },
  );
}
