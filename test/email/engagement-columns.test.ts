// An engagement export's columns that neither shape reads are named in the summary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../support/db.ts';
import { EngagementStore } from '../../src/email/engagement.ts';
import { importEngagementCsv } from '../../src/ingest/engagement/csv.ts';

describe('engagement CSV columns', () => {
  it('reads what it knows and names the rest', async () => {
    const database = await openSqlite();
    try {
      const csv = join(database.url.replace(/^sqlite:/, '').replace(/test\.sqlite$/, ''), 'events.csv');
      writeFileSync(csv, 'Email,Event,Event_ID,Subject,Campaign\nann@acme.example,delivered,e1,Hello,Q4\n');
      const summary = await importEngagementCsv(new EngagementStore(database.db), csv);
      assert.equal(summary.inserted, 1);
      assert.deepEqual(summary.unreadColumns, ['Subject', 'Campaign']);
      assert.deepEqual(summary.toJSON().unread_columns, ['Subject', 'Campaign']);
    } finally {
      await database.destroy();
    }
  });
});
