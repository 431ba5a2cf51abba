import type { HiddenByDefaults, JobSearchResult } from '../contract/jobs.ts';
import type { JobSearchFilters } from '../jobs/search.ts';
import type { OperationContext } from './context.ts';
import { PRICE_OF } from './catalogue.ts';
import type { Answer } from './answer.ts';

/** The search as every surface answers it (the LeadMagic v1 paths too: their shape has no room for more). */
export async function findJobs(
  services: Pick<OperationContext, 'jobs'>,
  request: JobSearchFilters,
  now = Date.now(),
): Promise<Answer<JobSearchResult>> {
  const result = await services.jobs.search(request, now);
  // A page past the end serves nothing and costs nothing (docs/contract.md, Not found).
  return { cost: PRICE_OF['jobs-finder'](result), body: result };
}

/**
 * Our own path (and the MCP tool, which calls it): an answer with no listing says which defaults
 * the request left in place hid listings of the query (docs/jobs.md, "When nothing is found"), so
 * a client that sent no dates does not conclude there are none. The note is looked for only then,
 * and the charge stays the price of the listings returned: none.
 */
export async function findJobsSayingWhy(
  services: Pick<OperationContext, 'jobs'>,
  request: JobSearchFilters,
): Promise<Answer<JobSearchResult & { hidden_by_defaults?: HiddenByDefaults }>> {
  const now = Date.now();
  const answer = await findJobs(services, request, now);
  if (answer.body.total_count > 0) return answer;
  const hidden = await services.jobs.hiddenByDefaults(request, now);
  return hidden ? { cost: answer.cost, body: { ...answer.body, hidden_by_defaults: hidden } } : answer;
}
