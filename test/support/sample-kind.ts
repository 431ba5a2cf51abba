// A data-set kind for tests of what is generic about data sets (parts stored whole, resume, a stop
// between parts, the mirror as base_url): it reads numbered pages of companies from its upstream.
// Imported before the application's modules, it is registered before the registry lists the types.
import { SOURCE_KINDS } from '../../src/sources/kinds/index.ts';

export const SAMPLE_TYPE = 'sample_set';
export const SAMPLE_PAGES = 5;

SOURCE_KINDS[SAMPLE_TYPE] = {
  type: SAMPLE_TYPE,
  family: 'data-set',
  defaultIntervalMs: 24 * 3_600_000,
  mirrorName: 'sample',
  defaultLocator: 'https://sample.invalid/pages',
  normalizeLocator: (locator) => ({ locator, key: locator }),
  async read(context) {
    const counts = { read: 0, inserted: 0, updated: 0, expired: 0, refused: 0 };
    const origin = context.source.base_url ?? new URL(context.source.locator).origin;
    for (let page = 1; page <= SAMPLE_PAGES; page++) {
      if (context.signal?.aborted) break;
      const part = `page-${page}`;
      if (await context.progress.isDone(part)) continue;
      const rows = JSON.parse(await context.fetch.getText(`${origin}/pages/${page}`)) as { name: string; domain: string }[];
      for (const row of rows) {
        const { created } = await context.companies.upsertCompany(row, 'sample', context.now);
        counts.read++;
        if (created) counts.inserted++;
        else counts.updated++;
      }
      await context.progress.markDone(part, { read: rows.length });
    }
    return counts;
  },
};
