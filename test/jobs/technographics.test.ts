// Technographics: the technologies a company's job listings name, read against the maintained
// dictionary, with the evidence of each (how many listings, first and last published, a link), on
// both dialects; and the matching rules for names that are also plain words.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { technologies } from '../../src/jobs/technologies.ts';

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
        ],
        'Go to market is no technology',
      );
      assert.deepEqual(answer.technologies.find((x) => x.name === 'Salesforce')!.categories, ['CRM']);
      assert.equal(answer.credits_consumed, 1);
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
