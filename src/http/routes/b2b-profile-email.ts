import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ProfileEmailBody, ProfileEmailResponse } from '../../contract/people.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { PRICES } from '../../billing/prices.ts';
import { requireNonBlank } from '../errors.ts';

const FOUND = 'Email found.';
const NOT_FOUND = 'No email found for this profile.';

export default async function profileEmailRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/b2b-profile-email',
    {
      schema: {
        summary: 'Find the work email of a professional profile (5 credits when found)',
        tags: ['people'],
        body: ProfileEmailBody,
        response: { 200: ProfileEmailResponse, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'b2b-profile-email', minimumCharge: PRICES.profileEmailFound },
    },
    async (request, reply) => {
      const profile = requireNonBlank(request.body, 'profile_url');
      const found = await app.services.people.findProfileEmail(profile);
      if (!found) return reply.settle(0, { profile_url: null, email: null, message: NOT_FOUND });
      return reply.settle(PRICES.profileEmailFound, { ...found, message: FOUND });
    },
  );
}
