// The jobs finder's fixed query mix (bench/jobs.bench.ts, bench/jobs-pg-explain.ts).
import type { JobsFinderBody } from '../../src/contract/jobs.ts';

/** The fixed query mix. Each entry rotates over a few realistic values. */
export const MIX: [string, (i: number) => JobsFinderBody][] = [
  ['no filter (defaults)', () => ({})],
  ['country', (i) => ({ country_id: ['US', 'GB', 'DE', 'CA', 'FR', 'IN'][i % 6] })],
  [
    'title',
    (i) => ({
      job_title: [
        'data engineer',
        'software engineer',
        'registered nurse',
        'account executive',
        'product manager',
        'senior backend engineer',
      ][i % 6],
    }),
  ],
  [
    'phrase in description',
    (i) => ({
      job_description: ['"machine learning"', '"security clearance"', '"forklift operation"', '"month-end close"', '"penetration testing"'][
        i % 5
      ],
    }),
  ],
  [
    'combined filters',
    (i) => ({
      country_id: ['US', 'GB', 'DE'][i % 3],
      job_title: ['engineer', 'manager', 'analyst'][i % 3],
      experience_level: 'senior',
      job_type_id: 1,
      posted_within: 14,
    }),
  ],
  [
    'combined + description',
    (i) => ({ region_id: [5, 3][i % 2], job_description: ['kubernetes', '"data pipelines"', 'react'][i % 3], job_type_id: 1 }),
  ],
  ['deep page (500 × 20)', (i) => ({ page: 500 + (i % 3), per_page: 20 })],
];
