// RSS 2.0, RSS 1.0 (RDF) and Atom feeds into a company's news or press releases.
import { XMLParser } from 'fast-xml-parser';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
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

/**
 * `href` made absolute against `base` (RFC 3986, as a browser does); an absolute href is kept as it
 * is, and one that cannot be resolved is dropped rather than stored relative.
 */
function absolute(href: string | null, base: string | null): string | null {
  if (!href) return null;
  try {
    return new URL(href, base ?? undefined).href;
  } catch {
    return null;
  }
}

/** The xml:base an element declares, resolved against its parent's base. */
function baseOf(element: unknown, parentBase: string | null): string | null {
  const declared = element && typeof element === 'object' ? (element as Record<string, unknown>)['@xml:base'] : undefined;
  return typeof declared === 'string' ? absolute(declared, parentBase) : parentBase;
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

/** An element read by textOf / linkOf: text, an element with attributes, or a list of them. */
const Node = Type.Optional(Type.Unknown());
// Each schema names the fields we read; an element may carry any others.

const RssItem = Type.Object({ title: Node, link: Node, guid: Node, pubDate: Node, 'dc:date': Node, source: Node });
const RssChannel = Type.Object({ title: Node, link: Node, item: Type.Optional(Type.Array(Type.Unknown())) });
const RssDocument = Type.Object({ rss: Type.Object({ channel: Type.Union([RssChannel, Type.Array(RssChannel, { minItems: 1 })]) }) });
const AtomEntry = Type.Object({ title: Node, link: Node, id: Node, published: Node, updated: Node, source: Node });
const AtomDocument = Type.Object({
  feed: Type.Object({ title: Node, link: Node, '@xml:base': Node, entry: Type.Optional(Type.Array(Type.Unknown())) }),
});
const RdfItem = Type.Object({ title: Node, link: Node, '@rdf:about': Node, 'dc:date': Node });
const RdfDocument = Type.Object({
  'rdf:RDF': Type.Object({
    channel: Type.Optional(Type.Union([RssChannel, Type.Array(RssChannel, { minItems: 1 })])),
    item: Type.Optional(Type.Array(Type.Unknown())),
  }),
});

const isRss = TypeCompiler.Compile(RssDocument);
const isAtom = TypeCompiler.Compile(AtomDocument);
const isRdf = TypeCompiler.Compile(RdfDocument);
const rssItem = TypeCompiler.Compile(RssItem);
const atomEntry = TypeCompiler.Compile(AtomEntry);
const rdfItem = TypeCompiler.Compile(RdfItem);

/** The entries of a feed that are elements; one that is not (bare text) reads as an entry without a title, which the import refuses. */
function elements<T>(list: unknown[] | undefined, check: { Check(value: unknown): boolean }): T[] {
  return (list ?? []).map((entry) => (check.Check(entry) ? (entry as T) : ({} as T)));
}

const first = <T>(v: T | T[]): T => (Array.isArray(v) ? v[0] : v);

/**
 * Parses a feed document; throws FeedError when it is not RSS or Atom. Relative links are made
 * absolute against the xml:base in force, else the feed's own address (`url`, when it was fetched).
 */
export function parseFeed(xml: string, url?: string): Feed {
  const documentBase = url && /^https?:\/\//i.test(url) ? url : null;
  let doc: unknown;
  try {
    doc = parser.parse(xml, true);
  } catch (error) {
    throw new FeedError(`not well-formed XML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (isRss.Check(doc)) {
    const channel = first(doc.rss.channel);
    const title = textOf(channel.title);
    const link = absolute(linkOf(channel.link), documentBase);
    return {
      title,
      link,
      items: elements<Static<typeof RssItem>>(channel.item, rssItem).map((item, i) => ({
        line: i + 1,
        title: textOf(item.title) ?? '',
        url: absolute(linkOf(item.link), link ?? documentBase),
        guid: textOf(item.guid),
        date: dateOf(item.pubDate ?? item['dc:date']),
        source: textOf(item.source) ?? title,
      })),
    };
  }
  if (isAtom.Check(doc)) {
    const title = textOf(doc.feed.title);
    const feedBase = baseOf(doc.feed, documentBase);
    const link = absolute(linkOf(doc.feed.link), feedBase);
    return {
      title,
      link,
      items: elements<Static<typeof AtomEntry>>(doc.feed.entry, atomEntry).map((entry, i) => ({
        line: i + 1,
        title: textOf(entry.title) ?? '',
        url: absolute(linkOf(entry.link), baseOf(entry, feedBase ?? link)),
        guid: textOf(entry.id),
        date: dateOf(entry.published ?? entry.updated),
        source: textOf((entry.source as { title?: unknown } | undefined)?.title) ?? title,
      })),
    };
  }
  if (isRdf.Check(doc)) {
    const rdf = doc['rdf:RDF'];
    const channel = rdf.channel === undefined ? undefined : first(rdf.channel);
    const title = textOf(channel?.title);
    const link = absolute(linkOf(channel?.link), documentBase);
    return {
      title,
      link,
      items: elements<Static<typeof RdfItem>>(rdf.item, rdfItem).map((item, i) => ({
        line: i + 1,
        title: textOf(item.title) ?? '',
        url: absolute(linkOf(item.link), link ?? documentBase),
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
