import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ProfileEmailBody, ProfileEmailResponse } from '../../contract/people.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { notImplemented, requireNonBlank } from '../errors.ts';

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
      config: { auth: true, operation: 'b2b-profile-email' },
    },
    async (request) => {
      requireNonBlank(request.body, 'profile_url');
      throw notImplemented('Profile to email');
    },
  );
}
