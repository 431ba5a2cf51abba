// What every importer reports: how many rows it read, what it did with them, and why it
// rejected the ones it rejected (bad rows never abort the rest of an import).

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
    };
  }

  /** Human-readable report for the CLI. */
  format(maxReasons = 20): string {
    const lines = [
      `read ${this.read}, inserted ${this.inserted}, updated ${this.updated}, unchanged ${this.unchanged}, rejected ${this.rejectedCount}`,
    ];
    for (const r of this.rejected.slice(0, maxReasons)) lines.push(`  line ${r.line}: ${r.reason}`);
    if (this.rejectedCount > maxReasons) lines.push(`  … and ${this.rejectedCount - maxReasons} more rejected rows`);
    return lines.join('\n');
  }
}
