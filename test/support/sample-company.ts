// The one sample company of the suites that exercise every operation (test/support/sample-world.ts)
// and of the benchmarks that look a company up through each surface (bench/platform-server.ts).
import type { CompanyInput } from '../../src/companies/input.ts';

export const SAMPLE_COMPANY: CompanyInput = {
  name: 'Acme Robotics, Inc.',
  domain: 'acme-robotics.com',
  industry: 'industrial automation',
  size_label: '51-200',
  employee_count: 140,
  founded_year: 2015,
  company_type: 'private',
  followers: 5120,
  revenue: 25_400_000.5,
  location: { locality: 'Austin', region: 'Texas', country: 'United States', postal_code: '78701', geo: '30.27,-97.74' },
  prof_url: 'https://www.linkedin.com/company/acme-robotics/',
  prof_id: '1035',
  social_b_url: 'https://twitter.com/acmerobotics',
  funding_rounds: [{ round: 'Series A', date: '2021-05-01', amount: 12_000_000, investors: ['Sequoia'] }],
  leadership: [{ role: 'ceo', first_name: 'Maria', last_name: 'de la Cruz', prof_url: 'https://www.linkedin.com/in/maria-de-la-cruz' }],
};
