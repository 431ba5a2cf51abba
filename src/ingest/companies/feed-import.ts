// Stores a feed's items as one company's news or press releases.
import type { CompanyService } from '../../companies/service.ts';
import { CompanyInputError, prepareArticle } from '../../companies/input.ts';
import { ImportSummary } from '../../import-summary.ts';
import { retryWhileUnavailable, type WriteRetryOptions } from '../../db/retry.ts';
import { feedDomain, parseFeed } from './feeds.ts';

export interface FeedImportOptions {
  service: CompanyService;
  xml: string;
  /** Where the feed was fetched from: relative links in it are resolved against this address. */
  url?: string;
  /** The company the feed is about; default: the company owning the feed's site domain. */
  companyDomain?: string;
  companyName?: string;
  /** Default: press_release when the feed is on the company's own domain, else news. */
  kind?: 'news' | 'press_release';
  source?: string;
  summary?: ImportSummary;
  seenAt?: number;
  /** How long to wait out a locked or unreachable database before the error is thrown (see retryWhileUnavailable). */
  retry?: WriteRetryOptions;
}

export async function importFeed(options: FeedImportOptions): Promise<ImportSummary> {
  const summary = options.summary ?? new ImportSummary();
  const feed = parseFeed(options.xml, options.url);
  const siteDomain = feedDomain(feed);
  const company = options.companyDomain
    ? await options.service.findByDomain(options.companyDomain)
    : options.companyName
      ? await options.service.matchByName(options.companyName)
      : siteDomain
        ? await options.service.findByDomain(siteDomain)
        : null;
  if (!company) {
    const wanted = options.companyDomain ?? options.companyName ?? siteDomain ?? '(the feed names no site)';
    for (const item of feed.items) {
      summary.read += 1;
      summary.reject(item.line, `no stored company for ${wanted}`);
    }
    return summary;
  }
  const ownSite =
    siteDomain !== null && company.domain !== null && (siteDomain === company.domain || siteDomain.endsWith(`.${company.domain}`));
  const kind = options.kind ?? (ownSite ? 'press_release' : 'news');
  const valid: typeof feed.items = [];
  for (const item of feed.items) {
    summary.read += 1;
    try {
      prepareArticle(item, kind, `item ${item.line}`);
      valid.push(item);
    } catch (error) {
      summary.reject(item.line, error instanceof CompanyInputError ? error.message : String(error));
    }
  }
  if (valid.length) {
    // One transaction, and a stored article is recognised again: a retry after a lock adds nothing twice.
    const added = await retryWhileUnavailable(
      () => options.service.addArticles(company.id, kind, valid, options.source ?? 'rss', options.seenAt),
      options.retry,
    );
    summary.inserted += added;
    summary.unchanged += valid.length - added;
  }
  return summary;
}
