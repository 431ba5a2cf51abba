// RSS 2.0, RSS 1.0 (RDF) and Atom feeds into a company's news or press releases.
import { XMLParser } from 'fast-xml-parser';
import type { ArticleInput } from '../../companies/input.ts';
import { normalizeDomain } from '../../companies/normalize.ts';

export interface Feed {
  title: string | null;
  /** The site the feed belongs to. */
  link: string | null;
  items: (ArticleInput & { line: number })[];
}

export class FeedError extends Error {}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  processEntities: true,
  htmlEntities: true,
  trimValues: true,
  // Every element that can repeat is always an array, so one-item feeds read like the rest.
  isArray: (name) => ['item', 'entry', 'link', 'category'].includes(name),
});

/** The text of an element that may carry attributes or CDATA. */
function textOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number') return String(v).trim() || null;
  if (Array.isArray(v)) return textOf(v[0]);
  if (typeof v === 'object') return textOf((v as Record<string, unknown>)['#text']);
  return null;
}

/** An Atom <link>'s href (the alternate one when several), or an RSS <link>'s text. */
function linkOf(v: unknown): string | null {
  const links = Array.isArray(v) ? v : v === undefined ? [] : [v];
  const hrefs = links.map((l) => {
    if (typeof l === 'string') return { rel: 'alternate', href: l.trim() };
    const o = l as Record<string, string>;
    return { rel: o['@rel'] ?? 'alternate', href: (o['@href'] ?? o['#text'] ?? '').trim() };
  });
  return (hrefs.find((h) => h.rel === 'alternate' && h.href) ?? hrefs.find((h) => h.href))?.href || null;
}

function dateOf(v: unknown): string | null {
  const t = textOf(v);
  if (!t) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Parses a feed document; throws FeedError when it is not RSS or Atom. */
export function parseFeed(xml: string): Feed {
  let doc: Record<string, any>;
  try {
    doc = parser.parse(xml, true) as Record<string, any>;
  } catch (error) {
    throw new FeedError(`not well-formed XML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (doc.rss?.channel) {
    const channel = Array.isArray(doc.rss.channel) ? doc.rss.channel[0] : doc.rss.channel;
    const title = textOf(channel.title);
    return {
      title,
      link: linkOf(channel.link),
      items: (channel.item ?? []).map((item: any, i: number) => ({
        line: i + 1,
        title: textOf(item.title) ?? '',
        url: linkOf(item.link),
        guid: textOf(item.guid),
        date: dateOf(item.pubDate ?? item['dc:date']),
        source: textOf(item.source) ?? title,
      })),
    };
  }
  if (doc.feed) {
    const title = textOf(doc.feed.title);
    return {
      title,
      link: linkOf(doc.feed.link),
      items: (doc.feed.entry ?? []).map((entry: any, i: number) => ({
        line: i + 1,
        title: textOf(entry.title) ?? '',
        url: linkOf(entry.link),
        guid: textOf(entry.id),
        date: dateOf(entry.published ?? entry.updated),
        source: textOf(entry.source?.title) ?? title,
      })),
    };
  }
  const rdf = doc['rdf:RDF'];
  if (rdf) {
    const channel = Array.isArray(rdf.channel) ? rdf.channel[0] : rdf.channel;
    const title = textOf(channel?.title);
    return {
      title,
      link: linkOf(channel?.link),
      items: (rdf.item ?? []).map((item: any, i: number) => ({
        line: i + 1,
        title: textOf(item.title) ?? '',
        url: linkOf(item.link),
        guid: textOf(item['@rdf:about']),
        date: dateOf(item['dc:date']),
        source: title,
      })),
    };
  }
  throw new FeedError('not an RSS or Atom feed (no <rss>, <feed> or <rdf:RDF> root)');
}

/** The domain a feed belongs to (its site link), for finding its company. */
export function feedDomain(feed: Feed): string | null {
  return feed.link ? normalizeDomain(feed.link) : null;
}
