import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CompanyFundingBody, CompanyFundingResponse } from '../../contract/companies.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { notImplemented, requireOneOf } from '../errors.ts';

export default async function companyFundingRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/company-funding',
    {
      schema: {
        summary: "A company's funding, financial, leadership and news data (4 credits when found)",
        tags: ['companies'],
        body: CompanyFundingBody,
        response: { 200: CompanyFundingResponse, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'company-funding' },
    },
    async (request) => {
      requireOneOf(request.body, ['company_name', 'company_domain']);
      throw notImplemented('Company funding');
    },
  );
}
