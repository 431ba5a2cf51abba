import type { FastifyInstance } from 'fastify';
import type { LookupList } from '../../../lookups/service.ts';
import { operationRoute } from '../../operation-route.ts';

const ID_NAME_LISTS = {
  'job-types': 'job_types',
  'job-regions': 'job_regions',
  'job-company-types': 'job_company_types',
  'job-industries': 'job_industries',
} as const satisfies Record<string, LookupList>;

/** The lookup lists behind the jobs-finder filters (free). */
export default async function lookupRoutes(app: FastifyInstance): Promise<void> {
  for (const [id, table] of Object.entries(ID_NAME_LISTS) as [keyof typeof ID_NAME_LISTS, LookupList][]) {
    operationRoute(app, id, async () => app.services.lookups.list(table));
  }
  operationRoute(app, 'job-country', async () => app.services.lookups.countries());
}
