// Discovery over many sites: each company's site read in turn (one site at a time, each page through
// robots.txt and the guarded client), what it links registered as sources linked to the company.
// `leadbase discover` and the bootstrap command share it; docs/sources.md, "Discovery".
import type { CompanyService } from '../companies/service.ts';
import type { BoardDiscovery, Discovery } from './discovery.ts';
import type { SourceRegistry } from './registry.ts';

/** A site to read, and the company it belongs to when known. */
export interface SiteToDiscover {
  domain: string;
  name?: string;
}

export interface RegisteredSource {
  type: string;
  locator: string;
  id: number;
  created: boolean;
}

/** What one site gave. */
export interface SiteReport {
  site: SiteToDiscover;
  found: Discovery;
  registered: RegisteredSource[];
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
  /** Say what was found; register nothing. */
  dryRun?: boolean;
  signal?: AbortSignal;
  /** Called after each site, with how many are done of how many. */
  onSite?: (report: SiteReport, done: number, total: number) => void;
}

/** Registers what discovery found on a company's site, linked to the company. */
async function register(registry: SourceRegistry, found: Discovery, site: SiteToDiscover): Promise<RegisteredSource[]> {
  const out: RegisteredSource[] = [];
  const common = { company_name: site.name ?? null, company_website: site.domain };
  const entries = [
    ...found.boards.map((b) => ({ type: b.type, locator: b.board, base_url: b.baseUrl ?? null, discovered_from: b.foundOn })),
    ...found.jsonLdPages.map((page) => ({ type: 'jsonld', locator: page, discovered_from: page })),
  ];
  for (const entry of entries) {
    const { source, created } = await registry.add({ ...entry, ...common });
    out.push({ type: entry.type, locator: source.locator, id: Number(source.id), created });
  }
  return out;
}

/** Reads each site in turn and registers its finds (unless a dry run); stops between sites when the signal aborts. */
export async function discoverSites(
  deps: SiteDiscoveryDeps,
  sites: readonly SiteToDiscover[],
  options: SiteDiscoveryOptions = {},
): Promise<SitesSummary> {
  const summary: SitesSummary = { sites: 0, withFinds: 0, registered: 0, pagesRead: 0, unreadable: [] };
  for (const site of sites) {
    if (options.signal?.aborted) break;
    const found = await deps.discovery.discover(site.domain, { maxPages: options.maxPages ?? 12, signal: options.signal });
    const registered = options.dryRun ? [] : await register(deps.registry, found, site);
    summary.sites++;
    summary.pagesRead += found.pagesRead.length;
    if (found.boards.length || found.jsonLdPages.length) summary.withFinds++;
    summary.registered += registered.filter((r) => r.created).length;
    if (!found.pagesRead.length) summary.unreadable.push({ site: site.domain, cause: found.notes[0] ?? 'no page could be read' });
    options.onSite?.({ site, found, registered }, summary.sites, sites.length);
  }
  return summary;
}

/**
 * The companies whose sites discovery reads next: those with a domain, the most employees first
 * (unknown counts last), then the newest; a site discovery already registered sources from is skipped.
 */
export async function companiesToDiscover(companies: CompanyService, registry: SourceRegistry, limit: number): Promise<SiteToDiscover[]> {
  const discovered = new Set(
    (await registry.list()).filter((s) => s.discovered_from && s.company_website).map((s) => s.company_website!.toLowerCase()),
  );
  const out: SiteToDiscover[] = [];
  // Read a little more than asked, so sites already discovered do not shrink the batch.
  for (const company of await companies.repository.biggestWithDomains(limit + discovered.size)) {
    if (discovered.has(company.domain.toLowerCase())) continue;
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
