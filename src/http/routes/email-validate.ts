import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { EmailValidateBody } from '../../contract/email.ts';
import type { EmailValidation } from '../../contract/email.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../errors.ts';
import { OPERATIONS, PRICE_OF, routeOptions, type Answer } from '../operations.ts';

export async function validateEmail(services: Services, body: EmailValidateBody): Promise<Answer<EmailValidation>> {
  const email = requireNonBlank(body, 'email');
  const validation = await services.email.validate({ email, first_name: body.first_name, last_name: body.last_name });
  return { cost: PRICE_OF['email-validate'](validation), body: validation };
}

export default async function emailValidateRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(OPERATIONS['email-validate'].path, routeOptions('email-validate'), async (request, reply) => {
    const { cost, body } = await validateEmail(app.services, request.body);
    return reply.settle(cost, body);
  });
}
