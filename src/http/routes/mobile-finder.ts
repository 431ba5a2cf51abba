import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { MobileFinderBody, MobileFinderResponse } from '../../contract/people.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { notImplemented, requireOneOf } from '../errors.ts';

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
      config: { auth: true, operation: 'mobile-finder' },
    },
    async (request) => {
      requireOneOf(request.body, ['profile_url', 'work_email', 'personal_email']);
      throw notImplemented('Mobile finder');
    },
  );
}
