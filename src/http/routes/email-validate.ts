import { PRICES } from '../../billing/prices.ts';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EmailValidateBody, EmailValidateResponse } from '../../contract/email.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { requireNonBlank } from '../errors.ts';
import { emailValidationCost } from '../../email/service.ts';

export default async function emailValidateRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/email-validate',
    {
      schema: {
        summary: 'Validate an email address (0.05 credits for valid, valid_catch_all and invalid)',
        tags: ['email'],
        body: EmailValidateBody,
        response: { 200: EmailValidateResponse, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'email-validate', minimumCharge: PRICES.emailValidationCharged },
    },
    async (request, reply) => {
      const email = requireNonBlank(request.body, 'email');
      const validation = await app.services.email.validate({
        email,
        first_name: request.body.first_name,
        last_name: request.body.last_name,
      });
      return reply.settle(emailValidationCost(validation.email_status), validation);
    },
  );
}
