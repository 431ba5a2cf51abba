// Requests per minute per API key and endpoint (docs/contract.md, Endpoints and Rate limits).
export const RATE_LIMITS_PER_MINUTE: Record<string, number> = {
  'email-validate': 1000,
  'company-funding': 300,
  'jobs-finder': 200,
  'role-finder': 500,
  'mobile-finder': 300,
  'b2b-profile-email': 300,
  'job-types': 1000,
  'job-country': 1000,
  'job-regions': 1000,
  'job-company-types': 1000,
  'job-industries': 1000,
  credits: 1000,
};
