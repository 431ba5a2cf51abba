// What an operation's answer may use: the domain services, and nothing of a surface (keys, billing,
// the request): the surface authenticates and settles. The composition root's Services holds them
// all; each answer names the few it reads (a Pick of this), so any surface can call it, and nothing
// here needs src/services.ts, which builds the bulk products from these answers.
import type { CompanyService } from '../companies/service.ts';
import type { EmailValidationService } from '../email/service.ts';
import type { JobService } from '../jobs/service.ts';
import type { PeopleService } from '../people/service.ts';

export interface OperationContext {
  companies: CompanyService;
  email: EmailValidationService;
  jobs: JobService;
  people: PeopleService;
}
