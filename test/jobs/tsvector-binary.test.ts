import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { listingTermsBinary, termsBinary, tsvectorArrayParam } from '../../src/jobs/tsvector-binary.ts';
import { descriptionTerms, termsBucket, termsVector } from '../../src/jobs/search-terms.ts';
import { openPostgres, PG_SKIP } from '../support/db.ts';

const DESCRIPTIONS = [
  '',
  'one',
  'Senior Machine-Learning Engineer: PyTorch, Kubernetes & AWS (remote). Machine learning, again machine learning.',
  'Café über Straße — naïve façade; C++/C# & Node.js, 24/7 on-call, 3.5 days. Ünïcödé ПРИВЕТ мир 日本語 テキスト',
  // Between 512 bytes and the out-of-line size: termsVector pads its first three lexemes with
  // positions (the first, "ж0", is not first in byte order).
  Array.from({ length: 20 }, (_, i) => (i % 3 ? `w${i}` : `ж${i}`)).join(' '),
  Array.from({ length: 90 }, (_, i) => `word${i} common${i % 7}`).join(' '),
  Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '),
];

describe('tsvector binary parameters', { skip: PG_SKIP }, () => {
  it('give PostgreSQL the value it makes of the same text', async () => {
    const t = await openPostgres(2);
    try {
      // The text the server parses (termsVector) against the binary form built from the same terms.
      const buckets = DESCRIPTIONS.map((_, i) => termsBucket(i % 2, Date.UTC(2026, 10, i + 1)));
      const texts = DESCRIPTIONS.map((d, i) => termsVector(descriptionTerms(d), buckets[i]));
      const binaries = DESCRIPTIONS.map((d, i) => termsBinary(descriptionTerms(d), buckets[i]));
      const { rows } = await sql<{ same: boolean; binary: string; text: string; size: number; textSize: number }>`
        select b = t as same, b::text as binary, t::text as text, pg_column_size(b) as size, pg_column_size(t) as "textSize"
        from unnest(${tsvectorArrayParam(binaries)}::tsvector[], ${texts}::tsvector[]) as u(b, t)`.execute(t.db);
      assert.equal(rows.length, texts.length);
      for (const row of rows) {
        assert.equal(row.binary, row.text);
        assert.equal(row.size, row.textSize);
        assert.ok(row.same);
      }
      // Stored bytes too: identical values compare equal as raw bytes.
      const { rows: bytes } = await sql<{ same: boolean }>`
        select tsvectorsend(b) = tsvectorsend(t) as same from unnest(${tsvectorArrayParam(binaries)}::tsvector[], ${texts}::tsvector[]) as u(b, t)`.execute(
        t.db,
      );
      assert.ok(bytes.every((r) => r.same));
    } finally {
      await t.destroy();
    }
  });

  it('are what a listing stores: the terms of its description in its bucket', () => {
    const publishedAt = Date.UTC(2026, 10, 3);
    assert.equal(
      listingTermsBinary(DESCRIPTIONS[3], 1, publishedAt),
      termsBinary(descriptionTerms(DESCRIPTIONS[3]), termsBucket(1, publishedAt)),
    );
    // The padded lexemes are the first two in the terms' order (as termsVector pads 100 short
    // words), with 256 positions from 1, though they are not the first two in byte order.
    const terms = Array.from({ length: 100 }, (_, i) => `w${99 - i}`);
    const binary = termsBinary(terms, '040');
    const padded = '\0\u0001\u0000\u0000\u0001';
    assert.ok(binary.includes(`w99~040${padded}`) && binary.includes(`w98~040${padded}`));
    assert.equal(binary.split(padded).length, 3);
  });
});
