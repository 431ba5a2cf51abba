// PostgreSQL's phrase index (src/jobs/search-terms.ts): the terms a listing is stored with, the
// queries made of a job_description, and the migration's SQL cut of stored listings agreeing with
// the application's cut word for word.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import {
  descriptionTerms,
  heldTerms,
  needsTextRecheck,
  singleTerm,
  termEveryBucket,
  termsBucket,
  termsQuery,
  termsVector,
  windowBuckets,
} from '../../src/jobs/search-terms.ts';
import { isCountableTerm } from '../../src/jobs/counted-terms.ts';
import { parseTextQuery } from '../../src/jobs/fts-query.ts';
import { migrations } from '../../src/db/migrate.ts';
import { openPostgres, PG_SKIP } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';

describe('search terms of a description', () => {
  it('are its words, pairs and triples of neighbouring words, cut as the SQLite index cuts them', () => {
    assert.deepEqual([...descriptionTerms('Machine-learning on Kubernetes, café!')].sort(), [
      'cafe',
      'kubernetes',
      'kubernetes cafe',
      'learning',
      'learning on',
      'learning on kubernetes',
      'machine',
      'machine learning',
      'machine learning on',
      'on',
      'on kubernetes',
      'on kubernetes cafe',
    ]);
    assert.deepEqual(descriptionTerms(''), []);
    // A run too long to be a word breaks the pairs and triples around it.
    assert.deepEqual(descriptionTerms(`a b ${'x'.repeat(101)} c d`), ['a', 'b', 'a b', 'c', 'd', 'c d']);
  });

  it('make a phrase of up to three words one term, a longer one the AND of its triples, checked again on the text', () => {
    const q = (input: string) => termsQuery(parseTextQuery(input), '012');
    const recheck = (input: string) => needsTextRecheck(parseTextQuery(input));
    assert.equal(q('kubernetes'), "'kubernetes~012'");
    assert.equal(q('"machine learning"'), "'machine learning~012'");
    assert.equal(q('"month-end close"'), "'month end close~012'");
    assert.equal(recheck('"month-end close"'), false);
    assert.equal(q('"motion planning algorithms team"'), "('motion planning algorithms~012' & 'planning algorithms team~012')");
    assert.equal(recheck('"motion planning algorithms team"'), true);
    assert.equal(
      q('react OR vue -"shift 4" -"night shift rota"'),
      "(('react~012' | 'vue~012')) & !('shift 4~012' | 'night shift rota~012')",
    );
    // A long excluded phrase is left to the recheck rather than excluding its triples found apart.
    assert.equal(q('forklift -"on the night shift"'), "'forklift~012'");
    assert.equal(recheck('forklift -"on the night shift"'), true);
    assert.equal(q('-forklift'), null);
  });

  it('ask for the terms in each bucket of the window: remote flag and publication week', () => {
    const week = 7 * 86_400_000;
    const start = 2_940 * week; // week 2,940 since the epoch: code 40
    assert.equal(termsBucket(0, start), '040');
    assert.equal(termsBucket(1, start + week - 1), '140');
    assert.equal(termsBucket(1, start + week), '141');
    assert.deepEqual(windowBuckets(0, start + 3 * 86_400_000, start + 15 * 86_400_000), ['040', '041', '042']);
    assert.deepEqual(windowBuckets(0, start, start - 1), []);
    // Codes repeat after 100 weeks: a longer window asks for each code once.
    assert.equal(new Set(windowBuckets(1, 0, start)).size, 100);
    assert.equal(windowBuckets(1, 0, start).length, 100);
    assert.equal(termsQuery(parseTextQuery('"machine learning" -sales'), '141'), "('machine learning~141') & !('sales~141')");
  });
});

describe('one-term queries, which counted terms can answer', () => {
  it('are a word or a phrase of up to three words, with no alternative and nothing excluded', () => {
    const term = (q: string) => singleTerm(parseTextQuery(q));
    assert.equal(term('Kubernetes'), 'kubernetes');
    assert.equal(term('"Month-End Close"'), 'month end close');
    assert.equal(term('"machine learning"'), 'machine learning');
    for (const q of ['"on the night shift"', 'react OR vue', 'react -vue', 'react vue', '-react']) assert.equal(term(q), null, q);
    assert.ok(isCountableTerm('month end close'));
    for (const t of ['', 'Month', 'a  b', 'a b c d', "o'brien", 'x'.repeat(101)]) assert.equal(isCountableTerm(t), false, t);
  });

  it('are found in a description as its full cut finds them, without cutting every term', () => {
    const vocabulary = [
      'month',
      'end',
      'close',
      'Café',
      'naïve',
      'on',
      'the',
      'night',
      'shift',
      'x'.repeat(101),
      '-',
      'Month-End',
      ',',
      '2024',
    ];
    const wanted = [
      'month',
      'end close',
      'month end close',
      'cafe naive',
      'the night shift',
      'night',
      'on the',
      'shift month',
      '2024 month end',
    ];
    const prefixes = new Set(
      wanted.flatMap((t) =>
        t
          .split(' ')
          .map((_, n, words) => words.slice(0, n).join(' '))
          .filter(Boolean),
      ),
    );
    let seed = 7;
    let found = 0;
    for (let i = 0; i < 500; i++) {
      const words: string[] = [];
      for (let n = 0; n < 12; n++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        words.push(vocabulary[Math.floor(seed / 65_536) % vocabulary.length]);
      }
      const text = words.join(' ');
      const all = new Set(descriptionTerms(text));
      const expected = wanted.filter((t) => all.has(t)).sort();
      assert.deepEqual(heldTerms(text, new Set(wanted), prefixes).sort(), expected, text);
      found += expected.length;
    }
    assert.ok(found > 500, `${found} terms found`);
  });

  it('are found in every bucket when a term is counted: both remote flags, every week code', () => {
    const keys = termEveryBucket('machine learning');
    assert.equal(keys.length, 200);
    assert.equal(keys[0], `'machine learning~000'`);
    assert.equal(keys[199], `'machine learning~199'`);
    assert.ok(keys.includes(termsQuery(parseTextQuery('"machine learning"'), termsBucket(1, Date.parse('2026-11-20T00:00:00Z')))!));
  });
});

describe('the stored vector of search terms', () => {
  it("holds the terms in the listing's bucket, with positions padding a vector of 512 bytes to 2,100 so that PostgreSQL moves it out of the row", () => {
    assert.equal(termsVector([], '040'), '');
    assert.equal(termsVector(['machine', 'machine learning'], '040'), "'machine~040' 'machine learning~040'");
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`); // 8 + 100 × (4 + 6 to 7) bytes
    const padded = termsVector(words, '040').split(' ');
    assert.equal(padded.length, 100);
    // (2,100 − 1,098) / 515 bytes of positions per lexeme: 2 lexemes padded.
    assert.equal(padded.filter((t) => t.includes(':')).length, 2);
    assert.match(padded[0], /^'w0~040':1,2,3,.*,256$/);
    const long = Array.from({ length: 300 }, (_, i) => `longer${i}`);
    assert.ok(!termsVector(long, '040').includes(':'), 'a vector over 2,100 bytes is moved out of the row as it is');
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
      const hasTsv = async () =>
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from information_schema.columns where table_name = 'jobs' and column_name = 'description_tsv' and table_schema = current_schema()`.execute(
            t.db,
          )
        ).rows[0].n === 1;
      assert.equal(await hasTsv(), false);
      // The positional column back (0034 down), one table again (0033 down), back to words and pairs
      // (0031 down), and further back to before the phrase index.
      await migrations['0034_jobs_drop_description_tsv'].down!(t.db);
      assert.equal(await hasTsv(), true);
      await migrations['0033_job_terms_partitions'].down!(t.db);
      assert.deepEqual(await read(), written);
      await migrations['0031_job_terms_triples'].down!(t.db);
      const pairs = await read();
      for (const [id, terms] of written) {
        const expected = terms
          .split('|')
          .map((term) => term.replace(/~\d{3}$/, ''))
          .filter((term) => term.split(' ').length < 3);
        assert.deepEqual(pairs.get(id)?.split('|').sort(), expected.sort());
      }
      await migrations['0026_job_terms_narrow'].down!(t.db);
      await migrations['0022_job_terms'].down!(t.db);
      await migrations['0022_job_terms'].up(t.db);
      assert.deepEqual(await read(), pairs);
      // Migration 0026 pads the stored vectors as the application pads them; 0031 adds the triples.
      await migrations['0026_job_terms_narrow'].up(t.db);
      assert.deepEqual(await read(), pairs);
      await migrations['0031_job_terms_triples'].up(t.db);
      assert.deepEqual(await read(), written);
      await migrations['0033_job_terms_partitions'].up(t.db);
      assert.deepEqual(await read(), written);
      await migrations['0034_jobs_drop_description_tsv'].up(t.db);
      assert.equal(await hasTsv(), false);
      // Padded alike: as many lexemes with positions (the SQL pads the first in sorted order, the
      // application the first in the text's order; positions are read by no query).
      const padding = (rows: { v: string }[]) => rows.map((r) => r.v.split(' ').filter((lexeme) => lexeme.includes(':')).length);
      const migrated = await sql<{ v: string }>`select terms::text as v from job_terms order by job_id`.execute(t.db);
      assert.deepEqual(padding(migrated.rows), padding(vectors.rows));
      assert.ok(
        padding(vectors.rows).some((n) => n > 0),
        'a vector of 512 bytes to 2,100 is among them',
      );
    } finally {
      await jobs.close();
      await t.destroy();
    }
  });
});
