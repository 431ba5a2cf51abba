// Discovery over many sites: each company's site read (one at a time unless told more, each page through
// robots.txt and the guarded client), what it links registered as sources linked to the company, and
// the site remembered (site_discoveries) so later runs go on with the next ones.
// `leadbase discover` and the bootstrap command share it; docs/sources.md, "Discovery".
import pLimit from 'p-limit';
import type { CompanyService } from '../companies/service.ts';
import type { BoardDiscovery, Discovery } from './discovery.ts';
import type { SourceInput, SourceRegistry } from './registry.ts';
import type { SourceRow } from './tables.ts';

/** A site to read, and the company it belongs to when known. */
export interface SiteToDiscover {
  domain: string;
  name?: string;
}

/** A source registered from a site's finds (`created` false: it was registered before). */
export interface RegisteredSource {
  source: SourceRow;
  created: boolean;
}

/** What one site gave. */
export interface SiteReport {
  site: SiteToDiscover;
  found: Discovery;
  registered: RegisteredSource[];
  /** Finds the registry would not take (a link read wrongly), with why: left out, never the run's failure. */
  refused: { type: string; locator: string; reason: string }[];
}

export interface SitesSummary {
  sites: number;
  /** Sites where a board or JobPosting data was found. */
  withFinds: number;
  /** Sources newly registered. */
  registered: number;
  /** Pages read over all sites. */
  pagesRead: number;
  /** Sites of which no page could be read, with the first reason noted. */
  unreadable: { site: string; cause: string }[];
}

export interface SiteDiscoveryDeps {
  discovery: BoardDiscovery;
  registry: SourceRegistry;
}

export interface SiteDiscoveryOptions {
  /** Pages read per site at most (default 12). */
  maxPages?: number;
  /** Say what was found; register nothing and remember nothing. */
  dryRun?: boolean;
  /** Sites read at once (default 1). */
  concurrency?: number;
  /** ATS name → the operator's mirror URL, applied as the base_url of the boards found on that ATS. */
  mirrors?: Readonly<Record<string, string>>;
  /** Aborting stops between sites and in a site between pages; what a stopped site found is not registered. */
  signal?: AbortSignal;
  /** Called after each site, with how many are done of how many. */
  onSite?: (report: SiteReport, done: number, total: number) => void;
}

/** Registers what discovery found on a company's site, linked to the company; a board's ATS mirror becomes its base_url. */
async function register(
  registry: SourceRegistry,
  found: Discovery,
  site: SiteToDiscover,
  mirrors: Readonly<Record<string, string>>,
): Promise<Pick<SiteReport, 'registered' | 'refused'>> {
  const common = { company_name: site.name ?? null, company_website: site.domain };
  const entries: SourceInput[] = [
    ...found.boards.map((b) => {
      const board = { type: b.type, locator: b.board, discovered_from: b.foundOn };
      const mirror = mirrors[b.type];
      return mirror ? { ...board, base_url: mirror, operator_base_url: true } : { ...board, base_url: b.baseUrl ?? null };
    }),
    ...found.jsonLdPages.map((page) => ({ type: 'jsonld', locator: page, discovered_from: page })),
  ];
  const out: Pick<SiteReport, 'registered' | 'refused'> = { registered: [], refused: [] };
  for (const entry of entries) {
    try {
      out.registered.push(await registry.add({ ...entry, ...common }));
    } catch (error) {
      // A link discovery read wrongly is not the operator's error: it is left out, and said.
      out.refused.push({ type: String(entry.type), locator: String(entry.locator), reason: (error as Error).message });
    }
  }
  return out;
}

/**
 * Reads the sites (`concurrency` at a time) and registers their finds, remembering each site read so
 * that later runs skip it (unless a dry run); stops between sites when the signal aborts.
 */
export async function discoverSites(
  deps: SiteDiscoveryDeps,
  sites: readonly SiteToDiscover[],
  options: SiteDiscoveryOptions = {},
): Promise<SitesSummary> {
  const summary: SitesSummary = { sites: 0, withFinds: 0, registered: 0, pagesRead: 0, unreadable: [] };
  const { signal, mirrors = {} } = options;
  const readOne = async (site: SiteToDiscover) => {
    if (signal?.aborted) return;
    const found = await deps.discovery.discover(site.domain, { maxPages: options.maxPages ?? 12, signal });
    if (signal?.aborted) return;
    const { registered, refused } = options.dryRun ? { registered: [], refused: [] } : await register(deps.registry, found, site, mirrors);
    if (!options.dryRun) await deps.registry.markSiteRead(site.domain, registered.filter((r) => r.created).length);
    summary.sites++;
    summary.pagesRead += found.pagesRead.length;
    if (found.boards.length || found.jsonLdPages.length) summary.withFinds++;
    summary.registered += registered.filter((r) => r.created).length;
    if (!found.pagesRead.length) summary.unreadable.push({ site: site.domain, cause: found.notes[0] ?? 'no page could be read' });
    options.onSite?.({ site, found, registered, refused }, summary.sites, sites.length);
  };
  const limit = pLimit(Math.max(1, options.concurrency ?? 1));
  await Promise.all(sites.map((site) => limit(() => readOne(site))));
  return summary;
}

/**
 * The companies whose sites discovery reads next: those with a domain, the most employees first
 * (unknown counts last), then the newest; a site discovery read before, or that a source already
 * names (a board registered for the company), is skipped.
 */
export async function companiesToDiscover(companies: CompanyService, registry: SourceRegistry, limit: number): Promise<SiteToDiscover[]> {
  if (limit <= 0) return [];
  const skipped = await registry.sitesRead();
  const named = new Set<number>();
  for (const source of await registry.list()) {
    if (source.company_website) skipped.add(source.company_website.toLowerCase());
    if (source.company_id != null) named.add(Number(source.company_id));
  }
  const out: SiteToDiscover[] = [];
  // Read a little more than asked, so sites skipped do not shrink the batch.
  for (const company of await companies.repository.biggestWithDomains(limit + skipped.size + named.size)) {
    if (named.has(company.id) || skipped.has(company.domain.toLowerCase())) continue;
    out.push({ domain: company.domain, name: company.name });
    if (out.length >= limit) break;
  }
  return out;
}

export interface CompanyDiscoveryOptions extends SiteDiscoveryOptions {
  /** Sites read at most. */
  limit: number;
}

/**
 * Bounded discovery over the sites of the companies already stored (`leadbase discover
 * --from-companies --limit N`, and bootstrap): the `limit` biggest companies not yet discovered.
 */
export async function discoverFromCompanies(
  deps: SiteDiscoveryDeps & { companies: CompanyService },
  options: CompanyDiscoveryOptions,
): Promise<SitesSummary> {
  const sites = await companiesToDiscover(deps.companies, deps.registry, options.limit);
  return discoverSites(deps, sites, options);
}
