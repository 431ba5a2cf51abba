// Feeds person records from any source format into the store in batches. Companies named by the
// positions are found (domain first, then an unambiguous name) or created through the company
// store, once per import. A bad row is rejected with its reason and never aborts the import.
import type { Db } from '../../db/database.ts';
import type { CompanyService } from '../../companies/service.ts';
import { normalizeCompanyName } from '../../companies/normalize.ts';
import { prepareCompany } from '../../companies/input.ts';
import { PeopleRepository } from '../../people/repository.ts';
import { PersonInputError, preparePerson, type PersonInput, type PreparedPerson } from '../../people/input.ts';
import { ImportStoppedError, ImportSummary, type RejectedRow } from '../../platform/import-summary.ts';
import { isLockedOrUnavailable, retryWhileUnavailable, type WriteRetryOptions } from '../../db/retry.ts';

/** ImportSummary plus the facts dropped from rows that were kept (a bad phone, a malformed email …). */
export class PeopleImportSummary extends ImportSummary {
  warnings: RejectedRow[] = [];
  warningCount = 0;

  warn(line: number, reason: string): void {
    this.warningCount += 1;
    if (this.warnings.length < ImportSummary.KEEP_REJECTIONS) this.warnings.push({ line, reason });
  }

  override toJSON() {
    return { ...super.toJSON(), dropped_facts: this.warningCount, drops: this.warnings };
  }

  override format(maxReasons = 20): string {
    const lines = [super.format(maxReasons)];
    if (this.warningCount) {
      lines.push(`kept rows with dropped facts: ${this.warningCount}`);
      for (const w of this.warnings.slice(0, maxReasons)) lines.push(`  line ${w.line}: ${w.reason}`);
      if (this.warningCount > maxReasons) lines.push(`  … and ${this.warningCount - maxReasons} more`);
    }
    return lines.join('\n');
  }
}

export type PersonSourceRecord = { line: number; input: PersonInput } | { line: number; error: string };

export interface PeopleImportOptions {
  db: Db;
  companies: CompanyService;
  /** Source name recorded with every fact ("jsonl", "csv", "crm-export" …). */
  source: string;
  records: AsyncIterable<PersonSourceRecord>;
  /** Country for phone numbers written without a country code (ISO two letters). */
  defaultCountry?: string | null;
  /** Rows per transaction (default 500). */
  batchSize?: number;
  onBatch?: (summary: PeopleImportSummary) => void;
  summary?: PeopleImportSummary;
  seenAt?: number;
  /** How long to wait out a locked or unreachable database before stopping (see retryWhileUnavailable). */
  retry?: WriteRetryOptions;
}

type CompanyRef = { name: string | null; domain: string | null };

/** Company ids by domain and name key, filled as an import meets companies. */
class CompanyCache {
  private readonly ids = new Map<string, number>();
  private readonly nameKeys = new Map<string, string>();
  constructor(
    private readonly companies: CompanyService,
    private readonly source: string,
    private readonly seenAt: number,
  ) {}

  /** The cache keys of a reference: its domain, then its name's matching key (computed once per name). */
  private keys(ref: CompanyRef): string[] {
    const keys: string[] = [];
    if (ref.domain) keys.push(`d:${ref.domain}`);
    if (ref.name) {
      let key = this.nameKeys.get(ref.name);
      if (key === undefined) {
        key = `n:${normalizeCompanyName(ref.name)}`;
        this.nameKeys.set(ref.name, key);
      }
      keys.push(key);
    }
    return keys;
  }

  get(ref: CompanyRef): number | undefined {
    for (const key of this.keys(ref)) {
      const id = this.ids.get(key);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  private remember(ref: CompanyRef, id: number): void {
    for (const key of this.keys(ref)) this.ids.set(key, id);
  }

  /** Finds or creates every company the batch names (outside the people transaction). */
  async load(refs: CompanyRef[]): Promise<void> {
    const missing: CompanyRef[] = [];
    const missingKeys = new Set<string>();
    // The batch's domains are resolved in one go; only name-only references are looked up one by one.
    const unknownDomains = refs.filter((ref) => ref.domain && this.get(ref) === undefined).map((ref) => ref.domain!);
    const byDomain = unknownDomains.length ? await this.companies.idsByDomains(unknownDomains) : new Map<string, number>();
    for (const ref of refs) {
      if (this.get(ref) !== undefined) continue;
      const keys = this.keys(ref);
      if (keys.some((k) => missingKeys.has(k))) continue;
      // A reference with a domain is that domain's company: a namesake found by name could be
      // another company. An unknown domain goes to the upsert, which creates the company or
      // completes a domain-less namesake.
      const foundId = ref.domain ? byDomain.get(ref.domain) : (await this.companies.matchByName(ref.name ?? ''))?.id;
      if (foundId !== undefined) {
        this.remember(ref, foundId);
      } else {
        missing.push(ref);
        for (const k of keys) missingKeys.add(k);
      }
    }
    if (!missing.length) return;
    const prepared = missing.map((ref) => prepareCompany({ name: ref.name ?? ref.domain, domain: ref.domain }));
    const results = await this.companies.upsertPrepared(prepared, this.source, this.seenAt);
    results.forEach((r, i) => this.remember(missing[i], r.id));
    // A reference that shared a key with another one but named a different company is looked up on its own.
    for (const ref of refs) if (this.get(ref) === undefined) await this.load([ref]);
  }
}

export async function runPeopleImport(options: PeopleImportOptions): Promise<PeopleImportSummary> {
  const summary = options.summary ?? new PeopleImportSummary();
  const batchSize = options.batchSize ?? 500;
  const seenAt = options.seenAt ?? Date.now();
  const repository = new PeopleRepository(options.db);
  const cache = new CompanyCache(options.companies, options.source, seenAt);
  let batch: { line: number; person: PreparedPerson }[] = [];

  const save = async (db: Db, rows: { person: PreparedPerson }[]) => {
    const items = rows.map((row) => ({ person: row.person, companyIds: row.person.positions.map((p) => cache.get(p.company) ?? null) }));
    return repository.saveMany(db, items, options.source, seenAt);
  };
  // Counted only once a transaction committed, so a retried attempt is not counted twice.
  const tally = (results: { created: boolean }[]) => {
    for (const r of results) {
      if (r.created) summary.inserted += 1;
      else summary.updated += 1;
    }
  };

  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    // Each attempt is one transaction (plus idempotent company look-ups), so a retry after a locked
    // or unreachable database starts clean.
    const store = (rows: typeof current) =>
      retryWhileUnavailable(async () => {
        await cache.load(rows.flatMap((r) => r.person.positions.map((p) => p.company)));
        return options.db.transaction().execute((trx) => save(trx, rows));
      }, options.retry);
    const stop = (error: unknown, unwritten: number): never => {
      summary.notWritten += unwritten;
      throw new ImportStoppedError(summary, error);
    };
    try {
      tally(await store(current));
    } catch (batchError) {
      if (isLockedOrUnavailable(batchError)) stop(batchError, current.length);
      // Something in the batch failed: store row by row so only the bad rows are lost.
      for (const [index, row] of current.entries()) {
        try {
          tally(await store([row]));
        } catch (error) {
          if (isLockedOrUnavailable(error)) stop(error, current.length - index);
          summary.reject(row.line, reasonOf(error));
        }
      }
    }
    options.onBatch?.(summary);
  };

  for await (const record of options.records) {
    summary.read += 1;
    if ('error' in record) {
      summary.reject(record.line, record.error);
      continue;
    }
    try {
      const person = preparePerson(record.input, options.defaultCountry ?? null);
      for (const warning of person.warnings) summary.warn(record.line, warning);
      batch.push({ line: record.line, person });
    } catch (error) {
      summary.reject(record.line, reasonOf(error));
      continue;
    }
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return summary;
}

export function reasonOf(error: unknown): string {
  if (error instanceof PersonInputError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 300);
}
