// PostgreSQL's phrase index (src/jobs/search-terms.ts): the terms a listing is stored with, the
// queries made of a job_description, and the migration's SQL cut of stored listings agreeing with
// the application's cut word for word.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { descriptionTerms, termsQuery, termsVector } from '../../src/jobs/search-terms.ts';
import { parseTextQuery } from '../../src/jobs/fts-query.ts';
import { migrations } from '../../src/db/migrate.ts';
import { openPostgres, PG_SKIP } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';

describe('search terms of a description', () => {
  it('are its words and pairs of neighbouring words, cut as the SQLite index cuts them', () => {
    assert.deepEqual(descriptionTerms('Machine-learning on Kubernetes, café!').split('\n').sort(), [
      'cafe',
      'kubernetes',
      'kubernetes cafe',
      'learning',
      'learning on',
      'machine',
      'machine learning',
      'on',
      'on kubernetes',
    ]);
    assert.equal(descriptionTerms(''), '');
    // A run too long to be a word breaks the pairs around it.
    assert.deepEqual(descriptionTerms(`a ${'x'.repeat(101)} b`).split('\n'), ['a', 'b']);
  });

  it('make a two-word phrase one term, a longer one the AND of its pairs, checked again on the text', () => {
    const q = (input: string) => termsQuery(parseTextQuery(input));
    assert.deepEqual(q('kubernetes'), { tsquery: "'kubernetes'", needsRecheck: false });
    assert.deepEqual(q('"machine learning"'), { tsquery: "'machine learning'", needsRecheck: false });
    assert.deepEqual(q('"motion planning algorithms"'), { tsquery: "('motion planning' & 'planning algorithms')", needsRecheck: true });
    assert.deepEqual(q('react OR vue -"shift 4"'), { tsquery: "(('react' | 'vue')) & !('shift 4')", needsRecheck: false });
    // A long excluded phrase is left to the recheck rather than excluding its pairs found apart.
    assert.deepEqual(q('forklift -"night shift rota"'), { tsquery: "'forklift'", needsRecheck: true });
    assert.deepEqual(q('-forklift'), { tsquery: null, needsRecheck: false });
  });
});

describe('the stored vector of search terms', () => {
  it('holds the terms, with positions padding a vector of 512 bytes to 2,100 so that PostgreSQL moves it out of the row', () => {
    assert.equal(termsVector(''), '');
    assert.equal(termsVector('machine\nmachine learning'), "'machine' 'machine learning'");
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`); // 8 + 100 × 10 bytes
    const padded = termsVector(words.join('\n')).split(' ');
    assert.equal(padded.length, 100);
    // (2,100 − 1,008) / 515 bytes of positions per lexeme: 3 lexemes padded.
    assert.equal(padded.filter((t) => t.includes(':')).length, 3);
    assert.match(padded[0], /^'word0':1,2,3,.*,256$/);
    const long = Array.from({ length: 300 }, (_, i) => `longer${i}`);
    assert.ok(!termsVector(long.join('\n')).includes(':'), 'a vector over 2,100 bytes is moved out of the row as it is');
  });
});

describe('search terms of listings stored before the phrase index (postgres)', { skip: PG_SKIP }, () => {
  it('are cut by the migration as the application cuts them', async () => {
    const t = await openPostgres();
    const companies = new CompanyService({ db: t.db });
    const jobs = new JobService({ db: t.db, companies });
    try {
      const texts = [
        'Senior Machine-Learning Engineer: PyTorch, Kubernetes & AWS (remote).',
        'Café über Straße — naïve façade; C++/C# & Node.js, 24/7 on-call, 3.5 days.',
        `Werkstudent (m/w/d) 100% Homeoffice; ${'z'.repeat(150)} tail words here`,
        'Ünïcödé ПРИВЕТ мир 日本語 テキスト 123abc ABC123 e-mail@example.com',
      ];
      await jobs.importer.importBoard(
        texts.map((text, i) => ({
          sourceId: `t${i}`,
          title: 'Engineer',
          location: 'Austin, TX',
          employmentTypes: ['Full-time'],
          publishedAt: Date.now() - i * 60_000,
          descriptionHtml: `<p>${text}</p>`,
          applyUrl: `https://jobs.example/t${i}`,
          company: { name: 'Terms Corp', website: 'https://terms.example' },
        })),
        { source: 'greenhouse', board: 'terms', now: Date.now() },
      );
      const read = async () =>
        new Map(
          (
            await sql<{
              job_id: string;
              terms: string;
            }>`select job_id, array_to_string(tsvector_to_array(terms), '|') as terms from job_terms order by job_id`.execute(t.db)
          ).rows.map((r) => [r.job_id, r.terms]),
        );
      const written = await read();
      assert.equal(written.size, texts.length);
      const vectors = await sql<{ v: string }>`select terms::text as v from job_terms order by job_id`.execute(t.db);
      await migrations['0026_job_terms_narrow'].down!(t.db);
      await migrations['0022_job_terms'].down!(t.db);
      await migrations['0022_job_terms'].up(t.db);
      assert.deepEqual(await read(), written);
      // Migration 0026 pads the stored vectors as the application pads them.
      await migrations['0026_job_terms_narrow'].up(t.db);
      assert.deepEqual(await read(), written);
      assert.deepEqual((await sql<{ v: string }>`select terms::text as v from job_terms order by job_id`.execute(t.db)).rows, vectors.rows);
    } finally {
      await jobs.close();
      await t.destroy();
    }
  });
});
