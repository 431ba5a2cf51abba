import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CompanyFundingBody, CompanyFundingResponse, FundingResult } from '../../contract/companies.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import { PRICES } from '../../billing/prices.ts';
import { requireOneOf } from '../errors.ts';

const FOUND = 'Funding data found.';
const NOT_FOUND = 'No funding data found for this company.';

/** docs/contract.md, "Not found": every result field null, 0 credits. */
const notFoundBody = () => ({
  ...Object.fromEntries(Object.keys(FundingResult.properties).map((k) => [k, null])),
  message: NOT_FOUND,
});

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
      config: { auth: true, operation: 'company-funding', minimumCharge: PRICES.companyFundingFound },
    },
    async (request, reply) => {
      requireOneOf(request.body, ['company_name', 'company_domain']);
      const result = await app.services.companies.funding({
        company_name: request.body.company_name?.trim() || null,
        company_domain: request.body.company_domain?.trim() || null,
      });
      if (!result) return reply.settle(0, notFoundBody());
      return reply.settle(PRICES.companyFundingFound, { ...result, message: FOUND });
    },
  );
}
