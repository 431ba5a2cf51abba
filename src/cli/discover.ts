import type { Command } from 'commander';
import { CliError, withServices } from './context.ts';
import { BoardDiscovery, type Discovery } from '../sources/discovery.ts';
import { createProgress } from './progress.ts';
import { positiveInt } from './arguments.ts';
import type { Services } from '../services.ts';

interface Registered {
  type: string;
  locator: string;
  id: number;
  created: boolean;
}

/** Registers what discovery found on a company's site, linked to the company. */
async function register(services: Services, found: Discovery, company: { name?: string; domain: string }): Promise<Registered[]> {
  const out: Registered[] = [];
  const common = { company_name: company.name ?? null, company_website: company.domain };
  const entries = [
    ...found.boards.map((b) => ({ type: b.type, locator: b.board, base_url: b.baseUrl ?? null, discovered_from: b.foundOn })),
    ...found.jsonLdPages.map((page) => ({ type: 'jsonld', locator: page, discovered_from: page })),
  ];
  for (const entry of entries) {
    const { source, created } = await services.sources.registry.add({ ...entry, ...common });
    out.push({ type: entry.type, locator: source.locator, id: Number(source.id), created });
  }
  return out;
}

/** `leadbase discover DOMAIN…`: finds a company's job boards and registers them as sources. */
export function registerDiscover(program: Command): void {
  program
    .command('discover')
    .description("Find companies' job boards on their sites (ATS links, JobPosting data) and register them as sources")
    .argument('[domains...]', 'company domains (or site URLs)')
    .option('--from-companies', 'every company in the company store that has a domain')
    .option('--dry-run', 'say what was found; register nothing')
    .option('--max-pages <n>', 'pages read per site at most (default 12)')
    .option('-q, --quiet', 'no progress bar')
    .option('--json', 'print one JSON line per site')
    .action(
      async (
        domains: string[],
        opts: { fromCompanies?: boolean; dryRun?: boolean; maxPages?: string; quiet?: boolean; json?: boolean },
      ) => {
        if (!domains.length && !opts.fromCompanies) throw new CliError('give one or more domains, or --from-companies');
        const maxPages = Math.max(1, positiveInt(opts.maxPages, '--max-pages', 12, 200));
        await withServices(async (services) => {
          const discovery = new BoardDiscovery(services.sources.http, services.sources.robots);
          const sites: { name?: string; domain: string }[] = domains.map((domain) => ({ domain }));
          for (const site of sites) {
            const company = await services.companies.findByDomain(site.domain).catch(() => null);
            if (company) site.name = company.name;
          }
          if (opts.fromCompanies)
            for await (const company of services.companies.withDomains()) sites.push({ name: company.name, domain: company.domain });
          const progress = createProgress('discover', sites.length, 'sites', opts.quiet || opts.json);
          let withFinds = 0;
          let registeredCount = 0;
          for (const [i, site] of sites.entries()) {
            const found = await discovery.discover(site.domain, { maxPages });
            const registered = opts.dryRun ? [] : await register(services, found, site);
            if (found.boards.length || found.jsonLdPages.length) withFinds++;
            registeredCount += registered.filter((r) => r.created).length;
            progress.update(i + 1);
            if (opts.json) {
              console.log(
                JSON.stringify({
                  site: site.domain,
                  company: site.name ?? null,
                  boards: found.boards.map((b) => ({ type: b.type, board: b.board, base_url: b.baseUrl ?? null, found_on: b.foundOn })),
                  other_ats: found.otherAts.map((o) => ({ ats: o.ats, url: o.url, found_on: o.foundOn })),
                  jsonld_pages: found.jsonLdPages,
                  pages_read: found.pagesRead.length,
                  registered: registered.map((r) => ({ id: r.id, type: r.type, locator: r.locator, created: r.created })),
                  notes: found.notes,
                }),
              );
              continue;
            }
            if (progress.visible && !found.boards.length && !found.jsonLdPages.length) continue;
            const lines = [`${site.domain}${site.name ? ` (${site.name})` : ''}: read ${found.pagesRead.length} pages`];
            for (const b of found.boards) lines.push(`  found ${b.type} board "${b.board}" on ${b.foundOn}`);
            for (const page of found.jsonLdPages) lines.push(`  found JobPosting data on ${page}`);
            for (const r of registered)
              lines.push(`  ${r.created ? 'registered' : 'already registered'}: source ${r.id} (${r.type} ${r.locator})`);
            for (const note of found.notes) lines.push(`  could not tell: ${note}`);
            console.log(lines.join('\n'));
          }
          progress.stop();
          if (!opts.json)
            console.log(
              `discover: ${sites.length} sites, ${withFinds} with a board or JobPosting data, ${opts.dryRun ? 'nothing registered (dry run)' : `${registeredCount} sources registered`}`,
            );
        });
      },
    );
}
