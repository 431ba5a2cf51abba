// robots.txt, honoured for pages we crawl on companies' own sites (discovery, careers pages, feeds).
// Read once an hour per origin. A missing file (4xx) allows everything; an unreachable one (5xx,
// no answer) allows nothing until it is read again, as RFC 9309 asks.
import { LRUCache } from 'lru-cache';
import robotsParser from 'robots-parser';
import type { HttpClient } from './http-client.ts';

type Robot = ReturnType<typeof robotsParser>;

const TTL_MS = 3_600_000;
const UNREACHABLE_TTL_MS = 300_000;
/** robots.txt files are small; a larger one is read up to this size (RFC 9309 asks for at least 500 KiB). */
const MAX_BYTES = 512 * 1024;

/** robots.txt could not be read (5xx, no answer): nothing may be fetched, and `cause` says why. */
interface Unreachable {
  none: true;
  cause: string;
}

/** Whether a URL may be fetched, and when not, why: robots.txt forbids it, or robots.txt could not be read. */
export type RobotsVerdict = { allowed: true } | { allowed: false; reason: string };

export class RobotsRules {
  private readonly cache = new LRUCache<string, Promise<Robot | 'all' | Unreachable>>({ max: 10_000, ttl: TTL_MS });

  constructor(
    private readonly http: HttpClient,
    /** Our product token in robots.txt groups. */
    private readonly agent = 'leadbase',
  ) {}

  /** Whether robots.txt lets us fetch `url`. */
  async allows(url: string): Promise<boolean> {
    return (await this.check(url)).allowed;
  }

  /** Whether robots.txt lets us fetch `url`; when not, the reason in words (a rule forbids it, or robots.txt could not be read and why). */
  async check(url: string): Promise<RobotsVerdict> {
    const origin = new URL(url).origin;
    let rules = this.cache.get(origin);
    if (!rules) {
      rules = this.read(origin);
      this.cache.set(origin, rules);
    }
    const robot = await rules;
    if (robot === 'all') return { allowed: true };
    if ('none' in robot) {
      // An unreachable robots.txt is asked again in minutes, not an hour.
      this.cache.set(origin, rules, { ttl: UNREACHABLE_TTL_MS });
      return { allowed: false, reason: `${robot.cause} (its robots.txt could not be read, so nothing on ${origin} is fetched)` };
    }
    return robot.isAllowed(url, this.agent) !== false ? { allowed: true } : { allowed: false, reason: 'robots.txt does not allow it' };
  }

  /** The sitemaps robots.txt names (discovery reads them). */
  async sitemaps(origin: string): Promise<string[]> {
    await this.allows(`${origin}/`);
    const robot = await this.cache.get(origin);
    return robot && typeof robot === 'object' && !('none' in robot) ? robot.getSitemaps() : [];
  }

  private async read(origin: string): Promise<Robot | 'all' | Unreachable> {
    try {
      const response = await this.http.get(`${origin}/robots.txt`, { accept: 'text/plain', maxBytes: MAX_BYTES });
      if (response.status >= 400 && response.status < 500) return 'all';
      if (response.status >= 300) return { none: true, cause: `robots.txt answered HTTP ${response.status}` };
      return robotsParser(`${origin}/robots.txt`, response.body.toString('utf8'));
    } catch (error) {
      // A file larger than the cap is read as far as the cap; anything else unreachable allows nothing.
      if ((error as { reason?: string }).reason === 'too_large') return 'all';
      return { none: true, cause: (error as Error).message.replace(`${origin}: `, '') };
    }
  }
}
