import type { FastifyInstance } from 'fastify';
import { unitsToCredits } from '../../../billing/units.ts';
import type { Services } from '../../../services.ts';
import { operationRoute } from '../../operation-route.ts';

/** The answer of /credits (and of LeadMagic's /v1/credits): the key's balance in credits. */
export async function creditsOf(services: Services, keyId: number): Promise<{ credits: number }> {
  return { credits: unitsToCredits(await services.billing.balance(keyId)) };
}

/** GET|POST /credits: the calling key's balance (free). */
export default async function creditsRoutes(app: FastifyInstance): Promise<void> {
  operationRoute(app, 'credits', async (request) => creditsOf(app.services, request.apiKey!.id));
}
