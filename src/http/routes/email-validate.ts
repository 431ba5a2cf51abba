import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { EmailValidateBody, EmailValidateResponse } from '../../contract/email.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { notImplemented, requireNonBlank } from '../errors.ts';

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
      config: { auth: true, operation: 'email-validate' },
    },
    async (request) => {
      requireNonBlank(request.body, 'email');
      throw notImplemented('Email validation');
    },
  );
}
