import type { FastifyInstance } from 'fastify';
import { unitsToCredits } from '../../../billing/units.ts';
import type { Services } from '../../../services.ts';
import { OPERATIONS } from '../../../operations/catalogue.ts';
import { routeOptions } from '../../route-options.ts';

/** The answer of /credits (and of LeadMagic's /v1/credits): the key's balance in credits. */
export async function creditsOf(services: Services, keyId: number): Promise<{ credits: number }> {
  return { credits: unitsToCredits(await services.billing.balance(keyId)) };
}

/** GET|POST /credits: the calling key's balance (free). */
export default async function creditsRoutes(app: FastifyInstance): Promise<void> {
  const handler = async (request: { apiKey?: { id: number } }) => creditsOf(app.services, request.apiKey!.id);
  for (const method of OPERATIONS.credits.methods)
    app.route({ method, url: OPERATIONS.credits.path, ...routeOptions('credits', method), handler });
}
