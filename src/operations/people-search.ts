import type { Static } from '@sinclair/typebox';
import type { PeopleSearchBody, PeopleSearchResponse } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { normalizeSizeLabel } from '../companies/normalize.ts';
import { alpha2Code, countryCodeByName } from '../lookups/countries.ts';
import { jobFunctionNamed, jobLevelNamed } from '../people/people-search.ts';
import { LEVEL_RANK } from '../people/titles.ts';
import { InvalidRequestError } from './errors.ts';
import { PRICE_OF } from './catalogue.ts';
import type { Answer } from './answer.ts';

/** How deep pages go: past it a search is narrowed, not paged (offsets this deep cost a scan). */
const MAX_DEPTH = 10_000;

/** Each word of a list read by `read`; a word it does not know is refused naming the field. */
function readAll<T>(field: string, values: string[] | undefined, read: (value: string) => T | null | undefined): T[] | undefined {
  if (!values?.length) return undefined;
  return values.map((value) => {
    const known = read(value);
    if (known === null || known === undefined)
      throw new InvalidRequestError(`${field}: "${value}" is not one we know (docs/people.md, People search).`, [
        { field: `/${field.replace('.', '/')}`, message: 'unknown value' },
      ]);
    return known;
  });
}

export async function searchPeople(
  services: Pick<OperationContext, 'companies' | 'people'>,
  request: PeopleSearchBody,
): Promise<Answer<Omit<Static<typeof PeopleSearchResponse>, 'credits_consumed'>>> {
  const company = request.company_filters ?? {};
  const person = request.people_filters ?? {};
  const page = request.page ?? 1;
  const perPage = request.per_page ?? 25;
  if ((page - 1) * perPage >= MAX_DEPTH)
    throw new InvalidRequestError(`page: results are paged to ${MAX_DEPTH} people deep; narrow the filters.`, [
      { field: '/page', message: `(page - 1) * per_page must be below ${MAX_DEPTH}` },
    ]);
  const functions = readAll('people_filters.contact_job_function', person.contact_job_function, jobFunctionNamed);
  const levels = readAll('people_filters.contact_job_level', person.contact_job_level, jobLevelNamed);
  const minLevel = person.min_seniority ? readAll('people_filters.min_seniority', [person.min_seniority], jobLevelNamed)![0] : undefined;
  const query = {
    industries: company.company_industry?.map((i) => i.trim().toLowerCase()),
    countryCodes: readAll('company_filters.company_country', company.company_country, (c) => alpha2Code(c) ?? countryCodeByName(c)),
    sizeLabels: readAll('company_filters.company_size', company.company_size, normalizeSizeLabel),
    minEmployees: company.min_employees,
    maxEmployees: company.max_employees,
    functions: functions?.map((f) => f.label),
    levels: levels?.flat(),
    minRank: minLevel ? Math.min(...minLevel.map((l) => LEVEL_RANK[l])) : undefined,
    hasEmail: person.has_email,
    offset: (page - 1) * perPage,
    limit: perPage,
  };
  if (Object.values({ ...query, offset: undefined, limit: undefined }).every((v) => v === undefined) && !company.company_domain?.length)
    throw new InvalidRequestError('Give at least one company or person filter.', [{ field: '/company_filters', message: 'no filter' }]);
  // Domains name companies of the store: one that is not known matches no one.
  const companyIds = company.company_domain?.length
    ? (await Promise.all(company.company_domain.map((d) => services.companies.findByDomain(d)))).filter((c) => c !== null).map((c) => c.id)
    : undefined;
  const found = await services.people.search({ ...query, companyIds });
  const body = {
    message: found.people.length ? 'People found.' : 'No people found.',
    total_count: found.total,
    total_count_exact: found.exact,
    returned_count: found.people.length,
    page,
    per_page: perPage,
    data: found.people,
  };
  // Charged for what is returned: a page past the end serves nothing and costs nothing.
  return { cost: PRICE_OF['people-search'](body), body };
}
