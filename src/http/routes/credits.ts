import type { FastifyInstance } from 'fastify';
import { CreditsResponse } from '../../contract/lookups.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { unitsToCredits } from '../../billing/units.ts';

/** GET|POST /credits: the calling key's balance (free). */
export default async function creditsRoutes(app: FastifyInstance): Promise<void> {
  const options = {
    schema: {
      summary: 'Balance of the calling key (free)',
      tags: ['account'],
      response: { 200: CreditsResponse, ...commonErrorResponses },
    },
    config: { auth: true, operation: 'credits' },
  };
  const handler = async (request: { apiKey?: { id: number } }) => ({
    credits: unitsToCredits(await app.services.billing.balance(request.apiKey!.id)),
  });
  app.get('/credits', options, handler);
  app.post('/credits', options, handler);
}
