import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { listingTermsBinary, tsvectorArrayParam, tsvectorBinary } from '../../src/jobs/tsvector-binary.ts';
import { descriptionTerms, termsBucket, termsVector } from '../../src/jobs/search-terms.ts';
import { openPostgres, PG_SKIP } from '../support/db.ts';

const DESCRIPTIONS = [
  '',
  'one',
  'Senior Machine-Learning Engineer: PyTorch, Kubernetes & AWS (remote). Machine learning, again machine learning.',
  'Café über Straße — naïve façade; C++/C# & Node.js, 24/7 on-call, 3.5 days. Ünïcödé ПРИВЕТ мир 日本語 テキスト',
  // Long enough for termsVector to pad lexemes with positions (between 512 bytes and the out-of-line size).
  Array.from({ length: 90 }, (_, i) => `word${i} common${i % 7}`).join(' '),
  Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '),
];

describe('tsvector binary parameters', { skip: PG_SKIP }, () => {
  it('give PostgreSQL the value it makes of the same text', async () => {
    const t = await openPostgres(2);
    try {
      const texts = [
        ...DESCRIPTIONS.map((d, i) => termsVector(descriptionTerms(d), termsBucket(i % 2, Date.UTC(2026, 10, i + 1)))),
        // Beyond what termsVector writes today: unsorted and repeated lexemes, positions out of order and
        // repeated, weights, quotes and a prefix of another lexeme.
        "'b':3,1,2 'a' 'b':2 'ab':5A,5,1B 'it''s' 'a b':9 'back\\'slash' 'x\\\\y'",
      ];
      const { rows } = await sql<{ same: boolean; binary: string; text: string; size: number; textSize: number }>`
        select b = t as same, b::text as binary, t::text as text, pg_column_size(b) as size, pg_column_size(t) as "textSize"
        from unnest(${tsvectorArrayParam(texts.map(tsvectorBinary))}::tsvector[], ${texts}::tsvector[]) as u(b, t)`.execute(t.db);
      assert.equal(rows.length, texts.length);
      for (const row of rows) {
        assert.equal(row.binary, row.text);
        assert.equal(row.size, row.textSize);
        assert.ok(row.same);
      }
      // Stored bytes too: identical values compare equal as raw bytes.
      const { rows: bytes } = await sql<{ same: boolean }>`
        select tsvectorsend(b) = tsvectorsend(t) as same from unnest(${tsvectorArrayParam(texts.map(tsvectorBinary))}::tsvector[], ${texts}::tsvector[]) as u(b, t)`.execute(
        t.db,
      );
      assert.ok(bytes.every((r) => r.same));
    } finally {
      await t.destroy();
    }
  });

  it('refuse text they do not understand', () => {
    assert.throws(() => tsvectorBinary('word'), /not understood/);
    assert.equal(
      listingTermsBinary(DESCRIPTIONS[2], 1, Date.UTC(2026, 10, 3)),
      tsvectorBinary(termsVector(descriptionTerms(DESCRIPTIONS[2]), termsBucket(1, Date.UTC(2026, 10, 3)))),
    );
  });
});
