import type { Command } from 'commander';
import { CliError, withServices } from './context.ts';
import { BoardDiscovery } from '../sources/discovery.ts';
import { companiesToDiscover, discoverSites, type SiteReport, type SiteToDiscover } from '../sources/site-discovery.ts';
import { createProgress } from './progress.ts';
import { positiveInt } from './arguments.ts';

/** `leadbase discover DOMAIN…`: finds a company's job boards and registers them as sources. */
export function registerDiscover(discover: Command): void {
  discover
    .argument('[domains...]', 'company domains (or site URLs)')
    .option('--from-companies', 'the companies in the company store that have a domain')
    .option(
      '--limit <n>',
      'sites read at most; with --from-companies, the N companies with the most employees (unknown counts last, then the newest) whose sites were not read before and have no source yet',
    )
    .option('--dry-run', 'say what was found; register nothing')
    .option('--max-pages <n>', 'pages read per site at most (default 12)')
    .option('-q, --quiet', 'no progress bar')
    .option('--json', 'print one JSON line per site')
    .action(
      async (
        domains: string[],
        opts: { fromCompanies?: boolean; limit?: string; dryRun?: boolean; maxPages?: string; quiet?: boolean; json?: boolean },
      ) => {
        if (!domains.length && !opts.fromCompanies) throw new CliError('give one or more domains, or --from-companies');
        const maxPages = Math.max(1, positiveInt(opts.maxPages, '--max-pages', 12, 200));
        const limit = opts.limit === undefined ? undefined : Math.max(1, positiveInt(opts.limit, '--limit', 1, 1_000_000));
        await withServices(async (services) => {
          const discovery = new BoardDiscovery(services.sources.http, services.sources.robots);
          const registry = services.sources.registry;
          const sites: SiteToDiscover[] = domains.map((domain) => ({ domain }));
          for (const site of sites) {
            const company = await services.companies.findByDomain(site.domain).catch(() => null);
            if (company) site.name = company.name;
          }
          if (opts.fromCompanies) {
            if (limit !== undefined)
              sites.push(...(await companiesToDiscover(services.companies, registry, Math.max(0, limit - sites.length))));
            else for await (const company of services.companies.withDomains()) sites.push({ name: company.name, domain: company.domain });
          }
          if (limit !== undefined) sites.splice(limit);
          if (!sites.length) throw new CliError('no site to read: no company in the store has a domain that was not read before');
          const progress = createProgress('discover', sites.length, 'sites', opts.quiet || opts.json);
          const onSite = ({ site, found, registered, refused }: SiteReport, done: number) => {
            progress.update(done);
            if (opts.json) {
              console.log(
                JSON.stringify({
                  site: site.domain,
                  company: site.name ?? null,
                  boards: found.boards.map((b) => ({ type: b.type, board: b.board, base_url: b.baseUrl ?? null, found_on: b.foundOn })),
                  other_ats: found.otherAts.map((o) => ({ ats: o.ats, url: o.url, found_on: o.foundOn })),
                  jsonld_pages: found.jsonLdPages,
                  pages_read: found.pagesRead.length,
                  registered: registered.map(({ source, created }) => ({
                    id: Number(source.id),
                    type: source.type,
                    locator: source.locator,
                    created,
                  })),
                  refused,
                  notes: found.notes,
                }),
              );
              return;
            }
            if (progress.visible && !found.boards.length && !found.jsonLdPages.length && !refused.length && found.pagesRead.length) return;
            const lines = [`${site.domain}${site.name ? ` (${site.name})` : ''}: read ${found.pagesRead.length} pages`];
            for (const b of found.boards) lines.push(`  found ${b.type} board "${b.board}" on ${b.foundOn}`);
            for (const page of found.jsonLdPages) lines.push(`  found JobPosting data on ${page}`);
            for (const { source, created } of registered)
              lines.push(`  ${created ? 'registered' : 'already registered'}: source ${source.id} (${source.type} ${source.locator})`);
            for (const r of refused) lines.push(`  refused ${r.type} ${r.locator}: ${r.reason}`);
            for (const note of found.notes) lines.push(`  could not tell: ${note}`);
            console.log(lines.join('\n'));
          };
          const summary = await discoverSites({ discovery, registry }, sites, { maxPages, dryRun: opts.dryRun, onSite });
          progress.stop();
          if (!opts.json)
            console.log(
              `discover: ${summary.sites} sites, ${summary.pagesRead} pages read, ${summary.withFinds} with a board or JobPosting data, ` +
                `${summary.unreadable.length} unreadable, ${opts.dryRun ? 'nothing registered (dry run)' : `${summary.registered} sources registered`}`,
            );
          // Reading nothing at all is a failure, not an empty result: say why.
          if (!summary.pagesRead)
            throw new CliError(
              `no page could be read on ${summary.sites === 1 ? 'the site' : `any of the ${summary.sites} sites`}: ` +
                summary.unreadable
                  .slice(0, 5)
                  .map((u) => `${u.site}: ${u.cause}`)
                  .join('; '),
            );
        });
      },
    );
}
