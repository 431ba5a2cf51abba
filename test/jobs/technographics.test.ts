// Technographics: the technologies a company's job listings name, read against the maintained
// dictionary, with the evidence of each (how many listings, first and last published, a link), on
// both dialects; and the matching rules for names that are also plain words.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { technologies } from '../../src/jobs/technologies.ts';
import { forgetTechnologyState, POSTINGS_READ, technographicsFromDescriptions } from '../../src/jobs/technographics.ts';

const names = (text: string) =>
  technologies()
    .namedIn(text)
    .map((t) => t.name);

describe('technology names in a text', () => {
  it('distinctive names match in any case, as whole words, longest first', () => {
    assert.deepEqual(names('We run postgresql and Node.js; our CRM is salesforce.'), ['PostgreSQL', 'Node.js', 'Salesforce']);
    assert.deepEqual(names('Salesforcey and xPostgreSQL are not names'), []);
    assert.deepEqual(names('Reporting in Google Analytics'), ['Google Analytics']);
  });

  it('plain-word names match only as written, and single plain words only with technical context', () => {
    assert.deepEqual(names('Go to market quickly. A strong base salary. React fast to customers.'), []);
    assert.deepEqual(names('ruby on rails'), []);
    assert.deepEqual(names('Ruby on Rails'), ['Ruby on Rails']);
    assert.deepEqual(names('Senior Go developer'), ['Go']);
    assert.deepEqual(names('We use Python, Go and React.'), ['Python', 'Go', 'React']);
    assert.deepEqual(names('Python with PostgreSQL'), ['Python', 'PostgreSQL']);
    assert.deepEqual(names('Python and Go'), []);
  });

  it('infrastructure and data tools, by their names and their aliases, as whole words', () => {
    assert.deepEqual(names('Deploys on Kubernetes with Terraform; events through Kafka.'), ['Kubernetes', 'Terraform', 'Apache Kafka']);
    assert.deepEqual(names('Stack: k8s (EKS), Docker, Ansible, Postgres, Snowflake, Airflow and Spark.'), [
      'Kubernetes',
      'Amazon EKS',
      'Docker',
      'Ansible',
      'PostgreSQL',
      'Snowflake',
      'Apache Airflow',
      'Apache Spark',
    ]);
    assert.deepEqual(names('dbt models in BigQuery; services in golang on AWS.'), ['dbt', 'Google BigQuery', 'Go', 'Amazon Web Services']);
    assert.deepEqual(names('Kafkaesque paperwork. Terraforming Mars. A sparkling office.'), []);
  });

  it('everyday words (Go, R, Rust, Swift, Spring, Chef, Puppet, Salt, Make) are no technology in ordinary prose', () => {
    const prose = [
      'We go the extra mile for our customers.',
      'Go the extra mile. Join us in spring 2025. Spring 2025 intake.',
      'A rust-coloured sofa. Rust-coloured walls.',
      'Swift response times matter. Head Chef wanted; our chef plans the Spring menu.',
      'Puppet shows for the kids. Salt and pepper. Make an impact.',
      'R&D team. Series C funding.',
    ];
    for (const text of prose) assert.deepEqual(names(text), [], text);
    // A technology nearby is not enough for these: only a list, or a word such as developer right after.
    assert.deepEqual(names('Make an impact with Kubernetes.'), ['Kubernetes']);
    assert.deepEqual(names('Our Salt Lake City office runs Kafka.'), ['Apache Kafka']);
    assert.deepEqual(names('Swift delivery of Terraform modules.'), ['Terraform']);
  });

  it('everyday words count in a list of technologies or right before a technical word', () => {
    assert.deepEqual(names('Experience with Chef, Puppet or Ansible.'), ['Chef', 'Puppet', 'Ansible']);
    assert.deepEqual(names('You know Python, R and SQL.'), ['Python', 'R', 'SQL']);
    assert.deepEqual(names('Rust engineers and Swift developers.'), ['Rust', 'Swift']);
    assert.deepEqual(names('Java services on the Spring framework.'), ['Java', 'Spring']);
    assert.deepEqual(names('Builds with Make and Bazel; config by SaltStack.'), ['GNU Make', 'Bazel', 'Salt Project']);
  });

  it('the dictionary spells each technology once: no name or alias belongs to two', () => {
    const file = JSON.parse(readFileSync(new URL('../../src/jobs/technologies.json', import.meta.url), 'utf8')) as {
      technologies: { name: string; categories: string[]; match?: string; aliases?: { name: string; match?: string }[] }[];
    };
    const owner = new Map<string, string>();
    for (const t of file.technologies) {
      assert.ok(t.categories.length, `${t.name} has a category`);
      for (const spelling of [t, ...(t.aliases ?? [])]) {
        assert.ok([undefined, 'exact', 'context', 'strict'].includes(spelling.match), `${spelling.name}: ${spelling.match}`);
        // Same words, same case: the matcher could not tell them apart.
        const key = spelling.name;
        assert.equal(owner.get(key) ?? t.name, t.name, `${key} names both ${owner.get(key)} and ${t.name}`);
        owner.set(key, t.name);
      }
    }
    assert.ok(file.technologies.length > 2_200, `${file.technologies.length} technologies`);
  });
});

const DAY = 86_400_000;
const PUBLISHED = Date.UTC(2026, 2, 1, 12);

for (const target of dbTargets) {
  describe(`technographics (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;

    before(async () => {
      t = await startTestApp(target, { credits: 100 });
      const company = { name: 'Lonestar Data', website: 'https://lonestar-data.example' };
      const listing = (id: string, title: string, description: string, daysBefore: number) => ({
        sourceId: id,
        title,
        location: 'Austin, TX',
        employmentTypes: ['Full-time'],
        publishedAt: PUBLISHED - daysBefore * DAY,
        descriptionHtml: `<p>${description}</p>`,
        applyUrl: `https://jobs.example/${id}`,
        company,
      });
      await t.services.jobs.importer.importBoard(
        [
          listing('A', 'Backend Engineer', 'Our services are written in Python and run on PostgreSQL.', 30),
          listing('B', 'Data Engineer', 'Pipelines in Python; warehouse on PostgreSQL; dashboards in Tableau.', 10),
          listing('C', 'Sales Operations', 'Own our Salesforce and HubSpot set-up. Go to market with the team.', 2),
        ],
        { source: 'greenhouse', board: 'lonestar', now: PUBLISHED },
      );
      await t.services.jobs.importer.importBoard(
        [
          {
            ...listing('Z', 'Office Manager', 'Keep the office running.', 1),
            company: { name: 'Quiet Co', website: 'https://quiet.example' },
          },
        ],
        { source: 'greenhouse', board: 'quiet', now: PUBLISHED },
      );
      const infra = { name: 'Streamline Infra', website: 'https://streamline-infra.example' };
      await t.services.jobs.importer.importBoard(
        [
          {
            ...listing('P1', 'Platform Engineer', 'Run our Kubernetes clusters; infrastructure as code in Terraform.', 20),
            company: infra,
          },
          { ...listing('P2', 'Data Platform Engineer', 'Event streams on Kafka and Kubernetes. We go the extra mile.', 5), company: infra },
          { ...listing('P3', 'Office Lead', 'Spring 2025 start. Make the office shine; a rust-coloured sofa awaits.', 1), company: infra },
        ],
        { source: 'greenhouse', board: 'streamline', now: PUBLISHED },
      );
    });
    after(() => t.close());

    it('each technology with how many listings name it, the first and last published, and the latest listing', async () => {
      const res = await t.post('/technographics', { company_domain: 'lonestar-data.example' });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json<{
        company_name: string;
        technologies: {
          name: string;
          categories: string[];
          postings: number;
          first_seen: string;
          last_seen: string;
          posting_url: string;
        }[];
        postings_read: number;
        credits_consumed: number;
      }>();
      assert.equal(answer.company_name, 'Lonestar Data');
      assert.equal(answer.postings_read, 3);
      const day = (d: number) => new Date(PUBLISHED - d * DAY).toISOString();
      assert.deepEqual(
        answer.technologies.map((x) => [x.name, x.postings, x.first_seen, x.last_seen, x.posting_url]),
        [
          ['PostgreSQL', 2, day(30), day(10), 'https://jobs.example/B'],
          ['Python', 2, day(30), day(10), 'https://jobs.example/B'],
          ['HubSpot', 1, day(2), day(2), 'https://jobs.example/C'],
          ['Salesforce', 1, day(2), day(2), 'https://jobs.example/C'],
          ['Tableau', 1, day(10), day(10), 'https://jobs.example/B'],
        ],
        'Go to market is no technology',
      );
      assert.deepEqual(answer.technologies.find((x) => x.name === 'Salesforce')!.categories, ['CRM']);
      assert.equal(answer.credits_consumed, 1);
    });

    it('infrastructure tools come with their evidence, and the prose around them names nothing', async () => {
      const res = await t.post('/technographics', { company_domain: 'streamline-infra.example' });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json<{
        technologies: {
          name: string;
          categories: string[];
          postings: number;
          first_seen: string;
          last_seen: string;
          posting_title: string;
        }[];
        postings_read: number;
      }>();
      const day = (d: number) => new Date(PUBLISHED - d * DAY).toISOString();
      assert.equal(answer.postings_read, 3);
      assert.deepEqual(
        answer.technologies.map((x) => [x.name, x.categories, x.postings, x.first_seen, x.last_seen, x.posting_title]),
        [
          ['Kubernetes', ['Containers'], 2, day(20), day(5), 'Data Platform Engineer'],
          ['Apache Kafka', ['Stream processing'], 1, day(5), day(5), 'Data Platform Engineer'],
          ['Terraform', ['Infrastructure as code'], 1, day(20), day(20), 'Platform Engineer'],
        ],
      );
    });

    it('a rewritten listing replaces its technologies; a store whose matches are not current reads descriptions until a build', async () => {
      const infra = { name: 'Streamline Infra', website: 'https://streamline-infra.example' };
      const rewritten = {
        sourceId: 'P1',
        title: 'Platform Engineer',
        location: 'Austin, TX',
        employmentTypes: ['Full-time'],
        publishedAt: PUBLISHED - 3 * DAY,
        descriptionHtml: '<p>Run our servers with Ansible.</p>',
        applyUrl: 'https://jobs.example/P1',
        company: infra,
      };
      await t.services.jobs.importer.importBoard([rewritten], { source: 'greenhouse', board: 'streamline', now: PUBLISHED });
      const { db } = t.services;
      const company = await t.services.companies.resolve({
        company_domain: 'streamline-infra.example',
        company_name: null,
        profile_url: null,
      });
      const answer = await t.services.jobs.technographics(company!.id);
      const day = (d: number) => new Date(PUBLISHED - d * DAY).toISOString();
      assert.deepEqual(
        answer!.technologies.map((x) => [x.name, x.postings, x.first_seen, x.last_seen, x.posting_url]),
        [
          ['Ansible', 1, day(3), day(3), 'https://jobs.example/P1'],
          ['Apache Kafka', 1, day(5), day(5), 'https://jobs.example/P2'],
          ['Kubernetes', 1, day(5), day(5), 'https://jobs.example/P2'],
        ],
        'Terraform went with the old text',
      );
      // As after a migration of a store with listings: no rows, state to be built.
      await db.deleteFrom('job_technologies').execute();
      await db.updateTable('job_technologies_state').set({ dictionary: '' }).execute();
      forgetTechnologyState(db);
      assert.deepEqual(await t.services.jobs.technographics(company!.id), answer, 'read from the descriptions');
      assert.ok((await t.services.jobs.buildTechnologies()) >= 7, 'every listing with a company read');
      assert.ok((await db.selectFrom('job_technologies').select('job_id').execute()).length > 0);
      assert.deepEqual(await t.services.jobs.technographics(company!.id), answer, 'read from the stored matches');
      assert.equal(await t.services.jobs.buildTechnologies(), 0, 'current: nothing to build');
    });

    it('only the latest 500 listings count, the edge cut by id among listings published at once, as reading the descriptions', async () => {
      const company = { name: 'Many Postings', website: 'https://many-postings.example' };
      // 497 listings a day apart, then six published at the same moment: the three latest by id are in the window.
      const listings = Array.from({ length: 503 }, (_, i) => ({
        sourceId: `M${i}`,
        title: 'Engineer',
        location: 'Austin, TX',
        employmentTypes: ['Full-time'],
        publishedAt: PUBLISHED - Math.min(i, 497) * DAY,
        descriptionHtml: `<p>${i >= 500 ? 'Servers run with Ansible.' : i >= 497 ? 'Data in Snowflake.' : i % 2 ? 'Deploys with Terraform.' : 'Events on Kafka.'}</p>`,
        applyUrl: `https://jobs.example/M${i}`,
        company,
      }));
      // Stored in this order, so ids follow i.
      await t.services.jobs.importer.importBoard(listings, { source: 'greenhouse', board: 'many', now: PUBLISHED });
      const { id } = (await t.services.companies.resolve({
        company_domain: 'many-postings.example',
        company_name: null,
        profile_url: null,
      }))!;
      const answer = await t.services.jobs.technographics(id);
      assert.equal(answer!.postings_read, POSTINGS_READ);
      assert.deepEqual(
        answer!.technologies.map((x) => [x.name, x.postings, x.posting_url]),
        [
          ['Apache Kafka', 249, 'https://jobs.example/M0'],
          ['Terraform', 248, 'https://jobs.example/M1'],
          ['Ansible', 3, 'https://jobs.example/M502'],
        ],
        'Snowflake is only in listings outside the window',
      );
      assert.deepEqual(answer, await technographicsFromDescriptions(t.services.db, id));
    });

    it('a company whose listings name none, or an unknown one, is the not-found answer at 0 credits', async () => {
      for (const body of [{ company_domain: 'quiet.example' }, { company_name: 'Nobody Such Ltd' }]) {
        const res = await t.post('/technographics', body);
        assert.equal(res.statusCode, 200, res.body);
        const answer = res.json<{ technologies: unknown; message: string; credits_consumed: number }>();
        assert.equal(answer.technologies, null);
        assert.equal(answer.message, 'No technologies found for this company.');
        assert.equal(answer.credits_consumed, 0);
      }
    });
  });
}
