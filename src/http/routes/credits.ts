import type { FastifyInstance } from 'fastify';
import { unitsToCredits } from '../../billing/units.ts';
import { OPERATIONS, routeOptions } from '../operations.ts';

/** GET|POST /credits: the calling key's balance (free). */
export default async function creditsRoutes(app: FastifyInstance): Promise<void> {
  const handler = async (request: { apiKey?: { id: number } }) => ({
    credits: unitsToCredits(await app.services.billing.balance(request.apiKey!.id)),
  });
  for (const method of OPERATIONS.credits.methods)
    app.route({ method, url: OPERATIONS.credits.path, ...routeOptions('credits', method), handler });
}
