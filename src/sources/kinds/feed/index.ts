// RSS and Atom feeds: a run adds the items to the company's news or press releases; the company is
// the source's website or name, else the feed's own site, and is made when not stored yet.
import { importFeed } from '../../../ingest/companies/feed-import.ts';
import { urlLocator } from '../../http-url.ts';
import type { SourceKind } from '../../kind.ts';

export const FEED_KIND: SourceKind = {
  type: 'feed',
  family: 'feed',
  defaultIntervalMs: 3_600_000,
  // A feed is a page on the company's own site.
  honoursRobots: true,
  normalizeLocator: (locator) => urlLocator('feed', locator),
  async read({ source, fetch, companies, now }) {
    const xml = (await fetch.get(source.locator, 'application/rss+xml, application/atom+xml, application/xml, text/xml')).toString('utf8');
    const summary = await importFeed({
      service: companies,
      xml,
      url: source.locator,
      companyDomain: source.company_website ?? undefined,
      companyName: source.company_website ? undefined : (source.company_name ?? undefined),
      source: 'rss',
      seenAt: now,
    });
    return { read: summary.read, inserted: summary.inserted, updated: summary.updated, expired: 0, refused: summary.rejectedTotal };
  },
};
