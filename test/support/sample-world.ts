// One small, realistic data set for the suites that exercise every operation: a company with its
// profile and funding, a peer company (its competitor), its people (test/fixtures/people/people.jsonl), a live job listing with a
// salary, and a mail world whose server knows some of its mailboxes. The listing's dates are fixed,
// so answers that show them are the same on every run (the OpenAPI examples are recorded from them).
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './app.ts';
import { startMailWorld, type MailWorld } from './fake-smtp.ts';
import { dropPgSchema, POSTGRES_URL, type DbTarget } from './db.ts';
import { PgBossQueue } from '../../src/queue/pgboss-queue.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';
import { SAMPLE_COMPANY } from './sample-company.ts';
import type { Config } from '../../src/platform/config.ts';
import type { ServiceDeps } from '../../src/services.ts';

const peopleFixture = fileURLToPath(new URL('../fixtures/people/people.jsonl', import.meta.url));

/** When the sample listing was published, and the day a search for it starts from. */
export const SAMPLE_LISTING_PUBLISHED = Date.UTC(2026, 0, 15, 9, 30);
export const SAMPLE_POSTED_AFTER = '2026-01-01';

export interface SampleWorld {
  t: TestApp;
  world: MailWorld;
  close(): Promise<void>;
}

export interface SampleWorldOptions {
  /** The app's configuration (ADMIN_TOKEN for the console's suites). */
  config?: Config;
  /**
   * Background jobs (bulk lists) run on a queue of this world's own: on PostgreSQL, pg-boss in a
   * schema made for it (dropped on close), so no other suite's worker can claim its jobs.
   */
  ownQueue?: boolean;
  /** How long a bulk job paused for credits waits before it looks again. */
  pausedCheckMs?: number;
  /** Other settings of the bulk jobs (their runs' attempts and retry delay, their stream's timing). */
  bulk?: ServiceDeps['bulk'];
  /** Local fakes (`host:port`) the guarded HTTP client may fetch from (a bulk list's fileUrl). */
  allowPrivateHosts?: readonly string[];
}

export async function startSampleWorld(
  target: DbTarget | undefined,
  credits = 1000,
  options: SampleWorldOptions = {},
): Promise<SampleWorld> {
  const world = await startMailWorld();
  await world.domain('acme-robotics.com', { mailboxes: ['maria', 'john.smith', 'jane'] });
  const database = options.ownQueue && target ? await target.open() : undefined;
  const pgBossSchema = database?.pgSchema ? `pgboss_${database.pgSchema}` : undefined;
  const queue = pgBossSchema ? new PgBossQueue({ connectionString: POSTGRES_URL!, schema: pgBossSchema, cancelCheckMs: 100 }) : undefined;
  const t = await startTestApp(target, {
    credits,
    database,
    deps: {
      ...(options.config ? { config: options.config } : {}),
      email: { ...world.emailConfig, recheckPollMs: 60_000 },
      ...(queue ? { queue } : {}),
      ...(options.pausedCheckMs || options.bulk ? { bulk: { pausedCheckMs: options.pausedCheckMs, ...options.bulk } } : {}),
      ...(options.allowPrivateHosts ? { crawlAllowPrivateHosts: options.allowPrivateHosts } : {}),
    },
  });
  await t.services.companies.upsertCompany(SAMPLE_COMPANY, 'test');
  // A peer of the sample company (same industry and market, the next size band): its competitor.
  await t.services.companies.upsertCompany(
    {
      name: 'Borealis Automation',
      domain: 'borealis-automation.example',
      industry: 'industrial automation',
      size_label: '201-500',
      employee_count: 320,
      founded_year: 2011,
      location: { locality: 'Denver', region: 'Colorado', country: 'United States' },
    },
    'test',
  );
  await runPeopleImport({
    db: t.database.db,
    companies: t.services.companies,
    source: 'jsonl',
    records: readPeopleJsonl(peopleFixture).records,
    defaultCountry: 'US',
  });
  await t.services.jobs.importer.importBoard(
    [
      {
        sourceId: 'J1',
        title: 'Robotics Engineer',
        location: 'Austin, TX',
        employmentTypes: ['Full-time'],
        publishedAt: SAMPLE_LISTING_PUBLISHED,
        descriptionHtml: '<p>Build robots in Python with PostgreSQL, deployed on Amazon Web Services.</p>',
        applyUrl: 'https://jobs.example/j1',
        salary: { min: 120_000, max: 150_000, currency: 'USD', period: 'year' },
        company: {
          name: 'Acme Robotics, Inc.',
          website: 'https://acme-robotics.com',
          prof_url: 'https://www.linkedin.com/company/acme-robotics',
        },
      },
    ],
    { source: 'greenhouse', board: 'acme', now: Date.now() },
  );
  return {
    t,
    world,
    async close() {
      await t.close();
      await database?.destroy();
      if (pgBossSchema) await dropPgSchema(pgBossSchema);
      await world.close();
    },
  };
}
