import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MobileFinderBody, MobileFinderResponse } from '../../contract/people.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { PRICES } from '../../billing/prices.ts';
import { requireOneOf } from '../errors.ts';

const FOUND = 'Mobile found.';
const NOT_FOUND = 'Mobile not found.';

export default async function mobileFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/mobile-finder',
    {
      schema: {
        summary: 'Find a mobile number from a profile URL or an email (5 credits when found)',
        tags: ['people'],
        body: MobileFinderBody,
        response: { 200: MobileFinderResponse, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'mobile-finder', minimumCharge: PRICES.mobileFinderFound },
    },
    async (request, reply) => {
      requireOneOf(request.body, ['profile_url', 'work_email', 'personal_email']);
      const found = await app.services.people.findMobile({
        profile_url: request.body.profile_url?.trim() || null,
        work_email: request.body.work_email?.trim() || null,
        personal_email: request.body.personal_email?.trim() || null,
      });
      if (!found) return reply.settle(0, { profile_url: null, mobile_number: null, message: NOT_FOUND });
      return reply.settle(PRICES.mobileFinderFound, { ...found, message: FOUND });
    },
  );
}
