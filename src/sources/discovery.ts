// Board discovery: from a company's site to the sources that keep its jobs fresh. Reads the home
// page, /careers and /jobs, the pages its links name careers or jobs, and the job pages its sitemap
// lists; recognises links (and embeds) of each supported ATS and schema.org JobPosting JSON-LD.
// Every fetch goes through the guarded client and honours robots.txt.
import { XMLParser } from 'fast-xml-parser';
import { decodeEntities } from '../jobs/normalize/html-text.ts';
import { extractJobPostings } from '../ingest/jobs/jsonld.ts';
import type { HttpClient } from '../net/http-client.ts';
import type { RobotsRules } from '../net/robots.ts';
import { boardOfUrl, otherAtsOfUrl, type BoardRef } from './ats-links.ts';

export interface FoundBoard extends BoardRef {
  /** The page the link was on. */
  foundOn: string;
}

export interface Discovery {
  /** The site as asked (a domain or a URL). */
  site: string;
  boards: FoundBoard[];
  /** Pages carrying JobPosting JSON-LD: each becomes a jsonld source. */
  jsonLdPages: string[];
  /** Pages read. */
  pagesRead: string[];
  /** Links to applicant-tracking systems leadbase does not read: where the company's jobs are instead. */
  otherAts: { ats: string; url: string; foundOn: string }[];
  /** What could not be read or told, in words. */
  notes: string[];
}

export interface DiscoveryOptions {
  /** Pages read at most per site, the first ones included (default 12). */
  maxPages?: number;
  signal?: AbortSignal;
}

/** Paths every careers section is commonly found at. */
const WELL_KNOWN = ['/', '/careers', '/jobs'];
/** Link text or path of a careers page. */
const CAREERS =
  /\b(careers?|jobs?|join(?:[\s_-]+us)?|work(?:ing)?[\s_-]+(?:with|at)[\s_-]+us|vacanc(?:y|ies)|open[\s_-]+(?:positions|roles)|recruit(?:ment|ing)?|karriere|stellenangebote|emplois?|carri[eè]res?|empleo|vagas)\b/i;
/** Sitemap entries that are job pages. */
const JOB_PAGE = /\/(careers?|jobs?|positions?|vacanc(?:y|ies)|openings?|karriere|stellen)(\/|$|-|\?)/i;

const ANCHOR = /<a\b([^>]*)>([\s\S]*?)<\/a>/gi;
const EMBED = /<(?:iframe|script|link|form)\b[^>]*?\b(?:src|href|action)\s*=\s*["']([^"']+)["']/gi;
const HREF = /\bhref\s*=\s*["']([^"']+)["']/i;
/** Any absolute address in the page's text: ATS addresses are also written into scripts, data attributes and plain text. */
const ANY_URL = /https?:\/\/[a-z0-9.-]+(?::\d+)?(?:\/[^\s"'<>\\()\]]*)?/gi;
/** Lever's widely used embed script names the board in its options, not in an address. */
const LEVER_EMBED_OPTIONS = /leverJobsOptions\s*=\s*\{[^}]*?\baccountName\s*:\s*["']([A-Za-z0-9][A-Za-z0-9_.-]{0,99})["']/g;
/**
 * The containers each ATS's embed script fills in. Found without the board's name beside them, the
 * page shows that ATS's jobs but a script picks the board: discovery says so rather than guess.
 */
const EMBED_CONTAINERS: [type: string, name: string, marker: RegExp][] = [
  ['greenhouse', 'Greenhouse', /\bgrnhse_app\b|\bGrnhse\.Iframe\b/],
  ['lever', 'Lever', /\blever-jobs-container\b/],
  ['ashby', 'Ashby', /\bashby_embed\b/],
  ['workable', 'Workable', /\bwhr_embed(?:_hook)?\b/],
  ['recruitee', 'Recruitee', /\brecruitee-careers\b/],
];

interface PageLinks {
  /** Every link and embed address, absolute, and every absolute address written anywhere in the page. */
  urls: string[];
  /** Boards the page shows itself (embedded by script, iframe or an embed's options), not only links to. */
  embedded: BoardRef[];
  /** Same-site links whose text or address says careers or jobs. */
  careers: string[];
}

function absolute(href: string, base: string): string | null {
  try {
    const url = new URL(decodeEntities(href.trim()), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function sameSite(a: URL, b: URL): boolean {
  const root = (host: string) => host.replace(/^www\./, '');
  return root(a.hostname) === root(b.hostname) || a.hostname.endsWith(`.${root(b.hostname)}`);
}

export function linksOf(html: string, pageUrl: string): PageLinks {
  const page = new URL(pageUrl);
  const urls: string[] = [];
  const careers: string[] = [];
  for (const [, attributes, inner] of html.matchAll(ANCHOR)) {
    const href = attributes.match(HREF)?.[1];
    const url = href ? absolute(href, pageUrl) : null;
    if (!url) continue;
    urls.push(url);
    const text = decodeEntities(inner.replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
    const target = new URL(url);
    if (sameSite(target, page) && (CAREERS.test(text) || CAREERS.test(target.pathname))) careers.push(url.replace(/#.*$/, ''));
  }
  const embedded: BoardRef[] = [];
  for (const [tag, src] of html.matchAll(EMBED)) {
    const url = absolute(src, pageUrl);
    if (!url) continue;
    urls.push(url);
    const ref = /^<(?:iframe|script)/i.test(tag) ? boardOfUrl(url) : null;
    if (ref) embedded.push(ref);
  }
  for (const [, account] of html.matchAll(LEVER_EMBED_OPTIONS)) embedded.push({ type: 'lever', board: account });
  for (const [raw] of html.matchAll(ANY_URL)) urls.push(decodeEntities(raw));
  return { urls: [...new Set(urls)], embedded, careers: [...new Set(careers)] };
}

/** Two finds of one board (token case aside) share this key. */
const boardKey = (ref: BoardRef) => `${ref.type}:${ref.board.toLowerCase()}`;

/** Whether two board names look like one company's: one holds the other, or they share a 4-letter stem. */
function relatedNames(a: string, b: string): boolean {
  const [x, y] = [a, b].map((name) => name.toLowerCase().replace(/[^a-z0-9]/g, ''));
  if (x.length >= 3 && y.length >= 3 && (x.includes(y) || y.includes(x))) return true;
  let shared = 0;
  while (shared < x.length && x[shared] === y[shared]) shared++;
  return shared >= 4;
}

/** The site's origin: `https://DOMAIN`, or the URL given. */
function originOf(site: string): string {
  const text = site.trim();
  return new URL(/^https?:\/\//i.test(text) ? text : `https://${text.replace(/\/.*$/, '')}`).origin;
}

const xml = new XMLParser({ ignoreAttributes: true, processEntities: true });

/** `<loc>` entries of a sitemap or sitemap index. */
function sitemapLocations(text: string): { pages: string[]; sitemaps: string[] } {
  try {
    const doc = xml.parse(text) as { urlset?: { url?: unknown }; sitemapindex?: { sitemap?: unknown } };
    const locs = (v: unknown) =>
      (Array.isArray(v) ? v : v ? [v] : [])
        .map((e) => (e as { loc?: unknown })?.loc)
        .filter((l): l is string => typeof l === 'string')
        .map((l) => l.trim());
    return { pages: locs(doc.urlset?.url), sitemaps: locs(doc.sitemapindex?.sitemap) };
  } catch {
    return { pages: [], sitemaps: [] };
  }
}

export class BoardDiscovery {
  constructor(
    private readonly http: HttpClient,
    private readonly robots: RobotsRules,
  ) {}

  async discover(site: string, options: DiscoveryOptions = {}): Promise<Discovery> {
    const result: Discovery = { site, boards: [], jsonLdPages: [], pagesRead: [], otherAts: [], notes: [] };
    let origin: string;
    try {
      origin = originOf(site);
    } catch {
      result.notes.push(`"${site}" is not a domain or URL`);
      return result;
    }
    const maxPages = options.maxPages ?? 12;
    const queue = WELL_KNOWN.map((path) => new URL(path, origin).toString());
    const seen = new Set<string>();
    const boards = new Map<string, FoundBoard>();
    /** Boards linked beside a page's own embedded board (see below). */
    const elsewhere = new Set<string>();
    /** ATS embed containers seen, by connector type: the page's board may be named by a script. */
    const containers = new Map<string, { name: string; foundOn: string }>();
    let sitemapRead = false;
    while (result.pagesRead.length < maxPages) {
      if (!queue.length) {
        // The sitemap's job pages, once the site's own pages are read.
        if (sitemapRead) break;
        sitemapRead = true;
        for (const page of await this.sitemapJobPages(origin, result, options.signal)) if (!seen.has(page)) queue.push(page);
        continue;
      }
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const html = await this.page(url, result, options.signal);
      if (html === null) continue;
      result.pagesRead.push(url);
      const links = linksOf(html, url);
      const own = new Set(links.embedded.map(boardKey));
      const refs = [...links.embedded, ...links.urls.map(boardOfUrl).filter((ref) => ref !== null)];
      for (const ref of refs) {
        const key = boardKey(ref);
        if (boards.has(key) || elsewhere.has(key)) continue;
        // A page that embeds its own board and also links to boards of unrelated names is pointing
        // at other companies' jobs (a customer's openings, a partner's): those are said, not
        // registered. A board named like the embedded one (acme, acme-eu) is the same company's.
        if (own.size && !own.has(key) && !links.embedded.some((e) => relatedNames(e.board, ref.board))) {
          elsewhere.add(key);
          result.notes.push(
            `${url} shows its own board and also links to ${ref.type} board "${ref.board}": taken for another company's, not registered`,
          );
          continue;
        }
        boards.set(key, { ...ref, foundOn: url });
      }
      for (const [type, name, marker] of EMBED_CONTAINERS)
        if (marker.test(html) && !containers.has(type)) containers.set(type, { name, foundOn: url });
      for (const link of links.urls) {
        const ats = otherAtsOfUrl(link);
        if (ats && !result.otherAts.some((o) => o.ats === ats)) result.otherAts.push({ ats, url: link, foundOn: url });
      }
      if (extractJobPostings(html).length) result.jsonLdPages.push(url);
      for (const next of links.careers) if (!seen.has(next)) queue.push(next);
    }
    // Boards a page redirected to were noted as they landed.
    for (const landed of result.boards) if (!boards.has(boardKey(landed))) boards.set(boardKey(landed), landed);
    result.boards = [...boards.values()];
    for (const [type, { name, foundOn }] of containers)
      if (!result.boards.some((b) => b.type === type))
        result.notes.push(`${foundOn} has a ${name} job-board embed whose board a script chooses: its name is not on the page`);
    for (const other of result.otherAts)
      result.notes.push(`${other.foundOn} links to ${other.ats} (${other.url}), an ATS leadbase does not read`);
    if (queue.length) result.notes.push(`stopped after ${maxPages} pages; ${queue.length} more were not read`);
    if (!result.boards.length && !result.jsonLdPages.length)
      result.notes.push(
        result.pagesRead.length
          ? `no supported ATS link or JobPosting data on the ${result.pagesRead.length} pages read (the site may use another ATS, or render its jobs with scripts)`
          : 'no page of the site could be read',
      );
    return result;
  }

  /** A page's HTML, or null with a note saying why not. */
  private async page(url: string, result: Discovery, signal?: AbortSignal): Promise<string | null> {
    try {
      const robots = await this.robots.check(url);
      if (!robots.allowed) {
        result.notes.push(`${url}: ${robots.reason}`);
        return null;
      }
      const response = await this.http.get(url, { accept: 'text/html,application/xhtml+xml', signal, maxBytes: 5 * 1024 * 1024 });
      if (response.status === 404 || response.status === 410) return null; // no such page: not worth a note
      if (response.status < 200 || response.status >= 300) {
        result.notes.push(`${url}: HTTP ${response.status}`);
        return null;
      }
      // A redirect to an ATS board is a find in itself.
      const landed = boardOfUrl(response.url);
      if (landed && !result.boards.some((b) => b.type === landed.type && b.board === landed.board))
        result.boards.push({ ...landed, foundOn: url });
      const type = response.headers['content-type'] ?? '';
      if (type && !/html|xml/i.test(type)) return null;
      return response.body.toString('utf8');
    } catch (error) {
      result.notes.push(`${url}: ${(error as Error).message}`);
      return null;
    }
  }

  /** Job pages listed by the sitemaps robots.txt names, or /sitemap.xml (one level of sitemap index). */
  private async sitemapJobPages(origin: string, result: Discovery, signal?: AbortSignal): Promise<string[]> {
    const named = await this.robots.sitemaps(origin).catch(() => [] as string[]);
    const sitemaps = named.length ? named.slice(0, 3) : [`${origin}/sitemap.xml`];
    const pages: string[] = [];
    for (let i = 0; i < sitemaps.length && i < 6; i++) {
      try {
        const response = await this.http.get(sitemaps[i], { accept: 'application/xml,text/xml', signal, maxBytes: 20 * 1024 * 1024 });
        if (response.status !== 200) continue;
        const locations = sitemapLocations(response.body.toString('utf8'));
        pages.push(...locations.pages.filter((p) => JOB_PAGE.test(new URL(p, origin).pathname)));
        // Nested sitemaps whose name says jobs or careers first; then others while there is room.
        const nested = locations.sitemaps.sort((a, b) => Number(JOB_PAGE.test(b)) - Number(JOB_PAGE.test(a)));
        sitemaps.push(...nested.slice(0, 3));
      } catch (error) {
        result.notes.push(`${sitemaps[i]}: ${(error as Error).message}`);
      }
    }
    // Job pages on the site: a few are enough to tell the ATS or JSON-LD (each job page carries it).
    return [...new Set(pages)].filter((p) => sameSite(new URL(p), new URL(origin))).slice(0, 5);
  }
}
