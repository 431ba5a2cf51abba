import type { FastifyInstance } from 'fastify';
import { IdNameList, JobCountryList } from '../../contract/lookups.ts';
import { commonErrorResponses } from '../../contract/common.ts';
import type { LookupList } from '../../lookups/service.ts';

const ID_NAME_LISTS: { path: string; table: LookupList; summary: string }[] = [
  { path: '/job-types', table: 'job_types', summary: 'Job types (ids for job_type_id)' },
  { path: '/job-regions', table: 'job_regions', summary: 'Job regions (ids for region_id)' },
  { path: '/job-company-types', table: 'job_company_types', summary: 'Company types (ids for company_type_id)' },
  { path: '/job-industries', table: 'job_industries', summary: 'Industries (ids for company_industry_id)' },
];

/** The lookup lists behind the jobs-finder filters (free). */
export default async function lookupRoutes(app: FastifyInstance): Promise<void> {
  for (const list of ID_NAME_LISTS) {
    app.get(
      list.path,
      {
        schema: { summary: list.summary, tags: ['lookups'], response: { 200: IdNameList, ...commonErrorResponses } },
        config: { auth: true, operation: list.path.slice(1) },
      },
      async () => app.services.lookups.list(list.table),
    );
  }
  app.get(
    '/job-country',
    {
      schema: {
        summary: 'Every ISO 3166-1 country (ids for country_id)',
        tags: ['lookups'],
        response: { 200: JobCountryList, ...commonErrorResponses },
      },
      config: { auth: true, operation: 'job-country' },
    },
    async () => app.services.lookups.countries(),
  );
}
