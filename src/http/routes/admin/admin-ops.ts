// The operator's bootstrap and discovery from the console (docs/console.md, "Bootstrap" and
// "Discovery"): the bootstrap runs in the background of this instance, one at a time, and is
// followed by polling; discovery reads one company's site now, registers nothing, and answers with
// each find ready to register (POST /admin/sources). Operator only; every start and stop is in the
// audit log (plugins/admin.ts), and so is how each bootstrap ended.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, InvalidRequestError } from '../../../operations/errors.ts';
import { requireOperator } from '../../admin-access.ts';
import { BootstrapBusyError, type BootstrapRunView } from '../../../sources/bootstrap-runs.ts';
import { BootstrapInputError, stepNames } from '../../../sources/bootstrap.ts';
import { curlLine } from '../../../sources/answers.ts';
import { BoardDiscovery, type Discovery } from '../../../sources/discovery.ts';
import type { SourceInput } from '../../../sources/registry.ts';
import { normalizeDomain } from '../../../companies/normalize.ts';
import { adminRoute } from '../../../contract/admin.ts';

/** Pages one discovery reads at most by default, and at most when asked. */
const DISCOVERY_PAGES = 12;
const DISCOVERY_PAGES_MAX = 30;
/** One discovery answers within this long, whatever the site does (each fetch has its own timeout too). */
const DISCOVERY_MS = 90_000;

/** The address the example calls name: this server as the caller reached it. */
function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function withCurl(run: BootstrapRunView | null, request: FastifyRequest) {
  if (!run) return null;
  const base = baseUrlOf(request);
  return { ...run, answers: run.answers?.map((a) => ({ ...a, curl: a.body ? curlLine(a, base) : null })) ?? null };
}

function wholeNumber(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max)
    throw new InvalidRequestError(`${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}.`);
  return n;
}

/** The site's host, from a domain or a URL; 400 when it is neither. */
function siteOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 300)
    throw new InvalidRequestError('domain is required: a domain such as acme.com, or the address of the site.');
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw new InvalidRequestError(`"${text}" is not a domain or a site address.`);
  }
  if (!url.hostname.includes('.') && !/^\[|^localhost$/.test(url.hostname))
    throw new InvalidRequestError(`"${text}" is not a domain or a site address (a domain such as acme.com).`);
  return /^https?:\/\//i.test(text) ? url.origin : url.host;
}

/** What discovery's outcome means, in one sentence. */
function summaryOf(found: Discovery, site: string): { outcome: 'found' | 'nothing_found' | 'unreadable'; message: string } {
  const finds = found.boards.length + found.jsonLdPages.length;
  if (finds) {
    const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    const what = [
      found.boards.length ? plural(found.boards.length, 'job board', 'job boards') : '',
      found.jsonLdPages.length ? plural(found.jsonLdPages.length, 'page with JobPosting data', 'pages with JobPosting data') : '',
    ].filter(Boolean);
    return { outcome: 'found', message: `Found ${what.join(' and ')} on ${site}.` };
  }
  if (!found.pagesRead.length)
    return { outcome: 'unreadable', message: `No page of ${site} could be read: ${found.notes[0] ?? 'no answer'}.` };
  return {
    outcome: 'nothing_found',
    message: `Nothing found on the ${found.pagesRead.length} page${found.pagesRead.length === 1 ? '' : 's'} of ${site} read: ${found.otherAts.length ? `it uses ${found.otherAts.map((o) => o.ats).join(', ')}, which leadbase does not read` : 'no supported job-board link or JobPosting data'}.`,
  };
}

export default async function adminOpsRoutes(app: FastifyInstance): Promise<void> {
  const runs = () => app.services.sources.bootstrap;

  app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => requireOperator(request.adminCaller!));

    // The bootstrap going on or the last one (null before any), the upstreams read from mirrors, the steps.
    admin.get('/admin/bootstrap', adminRoute('getBootstrap'), async (request) => ({
      run: withCurl(runs().current(), request),
      mirrors: Object.keys(runs().mirrors),
      step_names: stepNames(),
    }));

    // Starts a bootstrap: {"only"?: [steps], "limit"?: n, "discover_limit"?: n}. 202 at once; 409 while one runs.
    admin.post('/admin/bootstrap', adminRoute('startBootstrap'), async (request, reply) => {
      const body = (request.body ?? {}) as { only?: unknown; limit?: unknown; discover_limit?: unknown };
      if (body.only !== undefined && body.only !== null && (!Array.isArray(body.only) || body.only.some((s) => typeof s !== 'string')))
        throw new InvalidRequestError('only must be a list of step names.');
      const only = (body.only as string[] | undefined | null)?.map((s) => s.trim()).filter(Boolean);
      const limit = wholeNumber(body.limit, 'limit', 1, 1_000_000);
      const discoverLimit = wholeNumber(body.discover_limit, 'discover_limit', 0, 1_000_000);
      const ip = request.ip;
      let run: BootstrapRunView;
      try {
        run = runs().start({ only, limit, discoverLimit }, (ended) => {
          const rows = ended.steps.reduce((n, s) => n + s.rows, 0);
          void app.audit
            .record({
              actor: 'operator (console)',
              ip,
              action: `bootstrap ${ended.state}`,
              target: ended.id,
              detail: { rows, failures: ended.failures.length, ...(ended.error ? { error: ended.error } : {}) },
            })
            .catch((error: Error) => app.log.error({ err: { message: error.message } }, 'audit log write failed'));
        });
      } catch (error) {
        if (error instanceof BootstrapBusyError) throw new AppError(409, 'bootstrap_running', error.message);
        if (error instanceof BootstrapInputError) throw new InvalidRequestError(`only: ${error.message}`);
        throw error;
      }
      reply.status(202);
      return { run: withCurl(run, request), mirrors: Object.keys(runs().mirrors) };
    });

    // Stops the bootstrap between parts; what it stored is kept and a new one resumes.
    admin.delete('/admin/bootstrap', adminRoute('stopBootstrap'), async (request) => {
      const run = runs().stop();
      if (!run) throw new AppError(409, 'bootstrap_not_running', 'No bootstrap is running.');
      return { run: withCurl(run, request), mirrors: Object.keys(runs().mirrors) };
    });

    // Reads one company's site for job boards now: {"domain": "acme.com", "max_pages"?: n}. Registers nothing.
    admin.post('/admin/discovery', adminRoute('discoverSite'), async (request) => {
      const body = (request.body ?? {}) as { domain?: unknown; max_pages?: unknown };
      const site = siteOf(body.domain);
      const maxPages = wholeNumber(body.max_pages, 'max_pages', 1, DISCOVERY_PAGES_MAX) ?? DISCOVERY_PAGES;
      const { http, robots, registry, bootstrap } = app.services.sources;
      const found = await new BoardDiscovery(http, robots).discover(site, { maxPages, signal: AbortSignal.timeout(DISCOVERY_MS) });
      const company = await app.services.companies.findByDomain(site).catch(() => null);
      const known = new Map((await registry.list()).map((s) => [`${s.type}:${s.locator.toLowerCase()}`, Number(s.id)]));
      // The company the site is: its website when the site is named by a domain (not an address).
      const common = { company_name: company?.name ?? null, company_website: normalizeDomain(site) ? site : null };
      const find = (input: SourceInput) => ({
        source: input,
        registered_as: known.get(`${input.type}:${String(input.locator).toLowerCase()}`) ?? null,
      });
      return {
        domain: site,
        ...summaryOf(found, site),
        pages_read: found.pagesRead,
        boards: found.boards.map((b) => {
          // A board on an ATS the operator mirrors is read from the mirror, as bootstrap does.
          const mirror = bootstrap.mirrors[b.type];
          return {
            type: b.type,
            board: b.board,
            found_on: b.foundOn,
            ...find({
              type: b.type,
              locator: b.board,
              discovered_from: b.foundOn,
              ...common,
              ...(mirror ? { base_url: mirror, operator_base_url: true } : { base_url: b.baseUrl ?? null }),
            }),
          };
        }),
        jsonld_pages: found.jsonLdPages.map((page) => ({
          url: page,
          ...find({ type: 'jsonld', locator: page, discovered_from: page, ...common }),
        })),
        other_ats: found.otherAts.map((o) => ({ ats: o.ats, url: o.url, found_on: o.foundOn })),
        notes: found.notes,
      };
    });
  });
}
