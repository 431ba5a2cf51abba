import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireNonBlank } from '../errors.ts';
import { OPERATIONS, PRICE_OF, routeOptions } from '../operations.ts';

export default async function emailValidateRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(OPERATIONS['email-validate'].path, routeOptions('email-validate'), async (request, reply) => {
    const email = requireNonBlank(request.body, 'email');
    const validation = await app.services.email.validate({ email, first_name: request.body.first_name, last_name: request.body.last_name });
    return reply.settle(PRICE_OF['email-validate'](validation), validation);
  });
}
