import type { JobSearchResult } from '../../contract/jobs.ts';
import type { JobSearchFilters } from '../../jobs/search.ts';
import type { Services } from '../../services.ts';
import { PRICE_OF, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

export async function findJobs(services: Services, request: JobSearchFilters): Promise<Answer<JobSearchResult>> {
  const result = await services.jobs.search(request);
  // A page past the end serves nothing and costs nothing (docs/contract.md, Not found).
  return { cost: PRICE_OF['jobs-finder'](result), body: result };
}

export default answerRoute('jobs-finder', findJobs);
