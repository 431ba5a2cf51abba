// What every importer reports: how many rows it read, what it did with them, and why it
// rejected the ones it rejected (bad rows never abort the rest of an import). A row is "rejected"
// only for its content; a row that could not be written for another reason (the database stayed
// locked or unreachable) is "not written", stops the import, and makes the command fail.

export interface RejectedRow {
  /** 1-based line or record number in the source. */
  line: number;
  reason: string;
}

export class ImportSummary {
  read = 0;
  inserted = 0;
  updated = 0;
  unchanged = 0;
  rejected: RejectedRow[] = [];
  /** Rows read but not stored because the import stopped (never because of their content). */
  notWritten = 0;
  /** Why the import stopped before the end of its input, when it did. */
  stopped?: string;
  /** Columns of the input that map to no field we read: reported, never dropped silently. */
  unreadColumns: string[] = [];
  /** Rejections kept in full; past this only the count grows, so a bad file cannot exhaust memory. */
  static readonly KEEP_REJECTIONS = 1000;
  private rejectedCount = 0;

  reject(line: number, reason: string): void {
    this.rejectedCount += 1;
    if (this.rejected.length < ImportSummary.KEEP_REJECTIONS) this.rejected.push({ line, reason });
  }

  get rejectedTotal(): number {
    return this.rejectedCount;
  }

  toJSON() {
    return {
      read: this.read,
      inserted: this.inserted,
      updated: this.updated,
      unchanged: this.unchanged,
      rejected: this.rejectedCount,
      rejections: this.rejected,
      not_written: this.notWritten,
      ...(this.stopped ? { stopped: this.stopped } : {}),
      ...(this.unreadColumns.length ? { unread_columns: this.unreadColumns } : {}),
    };
  }

  /** Human-readable report for the CLI. */
  format(maxReasons = 20): string {
    const lines = [
      `read ${this.read}, inserted ${this.inserted}, updated ${this.updated}, unchanged ${this.unchanged}, rejected ${this.rejectedCount}`,
    ];
    for (const r of this.rejected.slice(0, maxReasons)) lines.push(`  line ${r.line}: ${r.reason}`);
    if (this.rejectedCount > maxReasons) lines.push(`  … and ${this.rejectedCount - maxReasons} more rejected rows`);
    if (this.stopped) lines.push(`not written ${this.notWritten} rows read, and the rest of the input: ${this.stopped}`);
    if (this.unreadColumns.length) lines.push(`  columns not read (they map to no field): ${this.unreadColumns.join(', ')}`);
    return lines.join('\n');
  }
}

/**
 * An import that stopped before the end of its input for a reason other than the rows' content
 * (the database stayed locked or unreachable). Everything stored so far is kept; the message says
 * how far it got and that running the same command again resumes (stored rows come back unchanged).
 */
export class ImportStoppedError extends Error {
  constructor(
    readonly summary: ImportSummary,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const stored = summary.inserted + summary.updated + summary.unchanged;
    super(
      `import stopped after ${summary.read} rows read (${stored} stored, ${summary.rejectedTotal} rejected, ${summary.notWritten} not written): ` +
        `the database could not be written (${reason}). Nothing stored was lost; run the same command again to resume ` +
        '(rows already stored are recognised and left unchanged).',
    );
    summary.stopped = `the database could not be written (${reason})`;
  }
}
