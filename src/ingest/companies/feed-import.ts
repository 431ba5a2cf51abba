// Stores a feed's items as one company's news or press releases.
import type { CompanyService } from '../../companies/service.ts';
import { CompanyInputError, prepareArticle } from '../../companies/input.ts';
import { ImportSummary } from '../../platform/import-summary.ts';
import { retryWhileUnavailable, type WriteRetryOptions } from '../../db/retry.ts';
import { feedDomain, parseFeed, type Feed } from './feeds.ts';
import type { CompanyRow } from '../../companies/tables.ts';
import { normalizeCompanyName } from '../../companies/normalize.ts';

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

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The company's name as a feed's title gives it: the title's words that spell one of its site's
 * domain labels ("The Guardian" on theguardian.com, "heise" of "heise developer neueste Meldungen"
 * on heise.de, "Stripe" of "Stripe Blog" on stripe.com). Null when no run of words does: a title
 * such as "Release notes from gulp" on github.com names a project, not the site's owner.
 */
export function companyNameOfFeed(title: string | null, domain: string): string | null {
  if (!title) return null;
  const labels = new Set(domain.split('.').slice(0, -1).map(letters).filter(Boolean));
  const words = title.split(/\s+/).filter(Boolean);
  for (let start = 0; start < words.length; start++)
    for (let end = start + 1; end <= words.length; end++) {
      const run = words.slice(start, end);
      if (labels.has(letters(run.join('')))) return run.join(' ').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.&!)]+$/gu, '');
    }
  return null;
}

/** The command that stores a feed's company when the feed cannot say which it is. */
function nameItCommand(url: string | undefined): string {
  const feed = url ?? '<feed>';
  return (
    `name the company: leadbase import companies feed ${feed} --domain <its domain> --name "<its name>" ` +
    `(for a registered feed: leadbase sources add feed ${feed} --company-website <its domain> --company-name "<its name>")`
  );
}

/**
 * The feed's company, stored when it is not yet: made from the domain and name given, else from the
 * feed's own site (its link) and the name its title spells; a reason when neither says enough.
 */
async function companyOfFeed(options: FeedImportOptions, feed: Feed): Promise<CompanyRow | { reason: string }> {
  const { service } = options;
  const siteDomain = feedDomain(feed);
  const found = options.companyDomain
    ? await service.findByDomain(options.companyDomain)
    : options.companyName
      ? await service.matchByName(options.companyName)
      : siteDomain
        ? await service.findByDomain(siteDomain)
        : null;
  if (found) return found;
  if (options.companyName && !options.companyDomain) {
    const key = normalizeCompanyName(options.companyName);
    if (key && (await service.repository.findByNameKey(key)).length > 1)
      return { reason: `several stored companies are named ${options.companyName}; ${nameItCommand(options.url)}` };
  }
  const domain = options.companyDomain ?? (options.companyName ? null : siteDomain);
  const onItsSite = !!domain && !!siteDomain && (siteDomain === domain || siteDomain.endsWith(`.${domain}`));
  const name = options.companyName?.trim() || (domain && onItsSite ? companyNameOfFeed(feed.title, domain) : null);
  if (!name) {
    const why = !domain
      ? 'the feed names no site'
      : onItsSite
        ? `its title ${feed.title ? JSON.stringify(feed.title) : '(none)'} does not name the owner of ${domain}`
        : `the feed is on ${siteDomain ?? 'no site'}, not ${domain}, so its title does not name the company`;
    return {
      reason: `no stored company for ${options.companyDomain ?? siteDomain ?? 'this feed'} (${why}); ${nameItCommand(options.url)}`,
    };
  }
  try {
    await retryWhileUnavailable(
      () => service.upsertCompany({ name, ...(domain ? { domain } : {}) }, options.source ?? 'rss', options.seenAt),
      options.retry,
    );
  } catch (error) {
    if (!(error instanceof CompanyInputError)) throw error;
    return { reason: `the feed's company could not be stored (${error.message}); ${nameItCommand(options.url)}` };
  }
  const made = domain ? await service.findByDomain(domain) : await service.matchByName(name);
  return made ?? { reason: `the feed's company ${name} was stored but cannot be found again by its ${domain ? 'domain' : 'name'}` };
}

export async function importFeed(options: FeedImportOptions): Promise<ImportSummary> {
  const summary = options.summary ?? new ImportSummary();
  const feed = parseFeed(options.xml, options.url);
  const siteDomain = feedDomain(feed);
  const company = await companyOfFeed(options, feed);
  if ('reason' in company) {
    for (const item of feed.items) {
      summary.read += 1;
      summary.reject(item.line, company.reason);
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
