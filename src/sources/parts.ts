// The parts of a data-set source stored whole (table source_parts, migration 0015).
import type { Db } from '../db/database.ts';
import type { KindProgress } from './kind.ts';

export function sourceParts(db: Db, sourceId: number, now: () => number = Date.now): KindProgress {
  return {
    async isDone(part) {
      const row = await db
        .selectFrom('source_parts')
        .select('part')
        .where('source_id', '=', sourceId)
        .where('part', '=', part)
        .executeTakeFirst();
      return row !== undefined;
    },
    async doneParts() {
      const rows = await db.selectFrom('source_parts').select(['part', 'completed_at']).where('source_id', '=', sourceId).execute();
      return new Map(rows.map((r) => [r.part, Number(r.completed_at)]));
    },
    async markDone(part, counts) {
      const values = { source_id: sourceId, part, completed_at: now(), counts: counts ? JSON.stringify(counts) : null };
      await db
        .insertInto('source_parts')
        .values(values)
        .onConflict((c) => c.columns(['source_id', 'part']).doUpdateSet({ completed_at: values.completed_at, counts: values.counts }))
        .execute();
    },
  };
}
