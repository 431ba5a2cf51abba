import type { Command } from 'commander';
import { withDatabase } from '../context.ts';
import type { InstallSummary, SourceCounts, SourceStatus } from '../../platform/status.ts';

const number = (n: number) => n.toLocaleString('en-US');

/** Types shown one a line; more (never with the types of this code base) are added up in one line. */
const MAX_TYPE_LINES = 30;
/** Outbound identities' lines (each identity, then its quarantines) shown at most. */
const MAX_IDENTITY_LINES = 12;

function sourceLines(summary: InstallSummary['sources_summary']): string[] {
  if (!summary.total) return ['no sources registered: leadbase bootstrap registers a starter set'];
  const lines = [
    `sources ${number(summary.total)}: ${number(summary.active)} active, ${number(summary.paused)} paused, ${number(summary.held)} held; ` +
      `${number(summary.failing)} failing, ${number(summary.never_fetched)} never fetched`,
  ];
  const shown = summary.by_type.length > MAX_TYPE_LINES ? summary.by_type.slice(0, MAX_TYPE_LINES - 1) : summary.by_type;
  const rest = summary.by_type.slice(shown.length);
  const rows: [string, SourceCounts][] = shown.map((t) => [t.type, t]);
  if (rest.length) {
    const others: SourceCounts = { total: 0, active: 0, paused: 0, held: 0, failing: 0, never_fetched: 0, oldest_success_at: null };
    for (const t of rest) for (const k of ['total', 'active', 'paused', 'held', 'failing', 'never_fetched'] as const) others[k] += t[k];
    rows.push([`(${rest.length} more types)`, others]);
  }
  const table = [
    ['type', 'total', 'active', 'paused', 'held', 'failing', 'never fetched', 'oldest success'],
    ...rows.map(([type, c]) => [
      type,
      ...[c.total, c.active, c.paused, c.held, c.failing, c.never_fetched].map(number),
      c.oldest_success_at ?? 'never',
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table)
    lines.push(
      `  ${row.map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}`.trimEnd(),
    );
  lines.push('  each source: leadbase status --sources, or leadbase sources list [--type TYPE] [--status STATUS]');
  return lines;
}

function listLines(sources: SourceStatus[]): string[] {
  return sources.map(
    (s) =>
      `  ${s.id} ${s.type} ${s.locator.length > 50 ? `${s.locator.slice(0, 49)}…` : s.locator} [${s.status}] ` +
      `last success ${s.last_success_at ?? 'never'}, next run ${s.next_run_at ?? '-'}, rows ${s.rows ?? '-'}` +
      (s.last_error ? `, last error: ${s.last_error}` : ''),
  );
}

/** `leadbase status` as text: a few dozen lines whatever the number of sources, unless they are listed. */
export function formatStatus(status: InstallSummary & { sources?: SourceStatus[] }): string {
  const { companies, jobs, people } = status.stores;
  const mb = status.database.bytes === null ? 'unknown' : `${(status.database.bytes / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `companies ${number(companies.total)}: ${number(companies.with_domain)} with a domain, ${number(companies.with_funding)} with funding, ${number(companies.with_leadership)} with leadership`,
    `jobs: ${number(jobs.live)} live listings, ${number(jobs.expired)} expired, from ${number(jobs.boards)} boards`,
    `people ${number(people.total)}: ${number(people.with_work_email)} with a work email, ${number(people.with_mobile)} with a mobile`,
    `queue: ${number(status.queue.depth)} jobs waiting or running; database (${status.database.dialect}): ${mb}`,
  ];
  if (status.empty) lines.push('The stores are empty: leadbase bootstrap fills them from open data.');
  lines.push(...sourceLines(status.sources_summary));
  if (status.outbound_identities) {
    const identityLines: string[] = [];
    for (const identity of status.outbound_identities) {
      identityLines.push(`  ${identity.id} (${identity.via}, EHLO ${identity.helo}) [${identity.state}]`);
      for (const q of identity.quarantines)
        identityLines.push(`    ${q.scope === '*' ? 'on a public blocklist' : `quarantined at ${q.scope}`} until ${q.until}: ${q.reply}`);
    }
    lines.push(`email outbound identities (${status.outbound_identities.length}):`, ...identityLines.slice(0, MAX_IDENTITY_LINES));
    if (identityLines.length > MAX_IDENTITY_LINES)
      lines.push(`  … ${identityLines.length - MAX_IDENTITY_LINES} more lines: leadbase status --json lists every identity and quarantine`);
  }
  if (status.sources) lines.push(`every source (${number(status.sources.length)}):`, ...listLines(status.sources));
  return lines.join('\n');
}

/**
 * `leadbase status`. It reads the database and the settings only: no services are built, so it
 * starts about as fast as `leadbase --help` (bench/cli.bench.ts).
 */
export function registerStatus(status: Command): void {
  status
    .option('--sources', 'also list every source: its last success, next run, rows and last error')
    .option('--json', 'print JSON: the counts, sources_summary (by type and state) and, with --sources, every source')
    .action(async (opts: { sources?: boolean; json?: boolean }) =>
      withDatabase(async (handle, config) => {
        const { installSummary, sourceStatuses } = await import('../../platform/status.ts');
        const { outboundIdentities } = await import('../../email/outbound.ts');
        const [summary, sources] = await Promise.all([
          installSummary(
            handle.db,
            handle.dialect,
            config.queue.backend === 'pg-boss' ? config.queue.pgBossSchema : undefined,
            outboundIdentities(config.email.outbound, config.email),
          ),
          opts.sources ? sourceStatuses(handle.db) : undefined,
        ]);
        const status = sources ? { ...summary, sources } : summary;
        console.log(opts.json ? JSON.stringify(status) : formatStatus(status));
      }),
    );
}
