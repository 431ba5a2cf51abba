// The one way lists are cut for multi-row statements and `in (…)` lists.

/** Bound parameters per statement we allow ourselves: SQLite's limit is 32,766, PostgreSQL's 65,535. */
export const MAX_BOUND_PARAMETERS = 30_000;

/** `items` cut into consecutive runs of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`chunk size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows cut so that each statement binds at most MAX_BOUND_PARAMETERS (`parametersPerRow` each). */
export function chunkForParameters<T>(rows: readonly T[], parametersPerRow: number): T[][] {
  return chunk(rows, Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / parametersPerRow)));
}
