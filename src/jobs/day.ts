/** A day in milliseconds: the unit of the index's per-day counts (days since the epoch, UTC). */
export const DAY_MS = 86_400_000;
