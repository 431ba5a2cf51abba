// `leadbase import engagement FILE.csv`: delivery evidence from any ESP export, as CSV with a
// header row. Two shapes (docs/email.md):
//   events: email,event[,occurred_at][,event_id][,source]   event = delivered | hard_bounce | …
//   counts: email,delivered,hard_bounces                       totals per address
// Event kinds other than deliveries and hard bounces (soft_bounce, block, deferred, open, click,
// complaint…) are read and ignored: they are not evidence about the mailbox.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { ImportStoppedError, ImportSummary } from '../../platform/import-summary.ts';
import { isLockedOrUnavailable, retryWhileUnavailable, type WriteRetryOptions } from '../../db/retry.ts';
import { normalizeEngagementAddress, type EngagementEvent, type EngagementKind, type EngagementStore } from '../../email/engagement.ts';

const DELIVERED = new Set(['delivered', 'delivery', 'deliver', 'sent_delivered']);
const HARD = new Set(['hard_bounce', 'hardbounce', 'hard bounce', 'bounce_hard', 'permanent_bounce', 'bounced_permanent']);
const IGNORED = new Set([
  'soft_bounce',
  'softbounce',
  'soft bounce',
  'transient_bounce',
  'block',
  'blocked',
  'deferred',
  'deferral',
  'dropped',
  'open',
  'opened',
  'click',
  'clicked',
  'complaint',
  'spamreport',
  'unsubscribe',
  'processed',
  'sent',
]);

/** Every column either shape reads. */
const READ_COLUMNS = new Set(['email', 'event', 'occurred_at', 'event_id', 'source', 'delivered', 'hard_bounces', 'hard_bounced']);

/** The largest per-row total a counts file may claim (a guard against a mistyped number). */
const MAX_COUNT = 100_000;

function parseTime(value: string | undefined, line: number): number | string {
  if (!value) return 0;
  if (/^\d{9,13}$/.test(value)) return value.length <= 10 ? Number(value) * 1000 : Number(value);
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : `line ${line}: occurred_at "${value}" is not a date`;
}

export interface EngagementImportOptions {
  batchSize?: number;
  onProgress?: (rowsRead: number) => void;
  /** How long to wait out a locked or unreachable database before stopping. */
  retry?: WriteRetryOptions;
}

export async function importEngagementCsv(
  store: EngagementStore,
  path: string,
  options: EngagementImportOptions = {},
): Promise<ImportSummary> {
  const summary = new ImportSummary();
  const batchSize = options.batchSize ?? 1000;
  let batch: EngagementEvent[] = [];
  let rowsInBatch = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    let result;
    try {
      // One transaction per batch, and events carry ids: a retry or a re-run counts nothing twice.
      result = await retryWhileUnavailable(() => store.record(batch), options.retry);
    } catch (error) {
      if (!isLockedOrUnavailable(error)) throw error;
      summary.notWritten += rowsInBatch;
      throw new ImportStoppedError(summary, error);
    }
    rowsInBatch = 0;
    summary.inserted += result.counted;
    summary.unchanged += result.duplicates;
    batch = [];
  };
  const parser = (path === '-' ? process.stdin : createReadStream(path)).pipe(
    parse({
      columns: (header: string[]) => {
        const columns = header.map((h) => h.trim().toLowerCase());
        // Columns neither shape reads are named in the summary, never dropped silently.
        summary.unreadColumns = header.filter((h, i) => h.trim() && !READ_COLUMNS.has(columns[i])).map((h) => h.trim());
        return columns;
      },
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      bom: true,
    }),
  );
  let mode: 'events' | 'counts' | null = null;
  let line = 1;
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    line += 1;
    summary.read += 1;
    rowsInBatch += 1;
    if (mode === null) {
      if (!('email' in row)) throw new Error('the CSV needs an "email" column');
      if ('event' in row) mode = 'events';
      else if ('delivered' in row && ('hard_bounces' in row || 'hard_bounced' in row)) mode = 'counts';
      else throw new Error('the CSV needs either an "event" column or "delivered" and "hard_bounces" columns');
    }
    const email = row.email ?? '';
    if (!email) {
      summary.reject(line, 'email is empty');
      continue;
    }
    // Refused here with its line, rather than skipped uncounted by the store.
    if (!normalizeEngagementAddress(email)) {
      summary.reject(line, `"${email}" is not an email address`);
      continue;
    }
    if (mode === 'events') {
      const kindText = (row.event ?? '').toLowerCase();
      let kind: EngagementKind;
      if (DELIVERED.has(kindText)) kind = 'delivered';
      else if (HARD.has(kindText)) kind = 'hard_bounce';
      else if (IGNORED.has(kindText)) {
        summary.unchanged += 1;
        continue;
      } else {
        summary.reject(line, `unknown event "${row.event}"`);
        continue;
      }
      const occurredAt = parseTime(row.occurred_at, line);
      if (typeof occurredAt === 'string') {
        summary.reject(line, occurredAt);
        continue;
      }
      batch.push({ source: row.source || 'csv', eventId: row.event_id || undefined, address: email, kind, occurredAt });
    } else {
      const delivered = Number(row.delivered || 0);
      const hard = Number(row.hard_bounces ?? row.hard_bounced ?? 0);
      if (![delivered, hard].every((n) => Number.isInteger(n) && n >= 0 && n <= MAX_COUNT)) {
        summary.reject(line, 'delivered and hard_bounces must be whole numbers from 0 to 100000');
        continue;
      }
      // The n-th delivery of an address has a fixed id, so importing a newer total adds only the difference.
      const address = email.toLowerCase();
      for (let i = 0; i < delivered; i += 1)
        batch.push({ source: 'csv-counts', eventId: `${address}:delivered:${i}`, address, kind: 'delivered', occurredAt: 0 });
      for (let i = 0; i < hard; i += 1)
        batch.push({ source: 'csv-counts', eventId: `${address}:hard_bounce:${i}`, address, kind: 'hard_bounce', occurredAt: 0 });
    }
    if (batch.length >= batchSize) {
      await flush();
      options.onProgress?.(summary.read);
    }
  }
  await flush();
  return summary;
}
