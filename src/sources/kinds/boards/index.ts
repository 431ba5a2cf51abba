// Job boards: one kind per job connector (src/ingest/jobs). An ATS board is named by its token (or
// a link to it), a careers page by its URL; a run fetches the whole board through the connector and
// imports it like `leadbase import jobs`, expiring the listings that vanished, and holds the source
// when more than half of the board's live listings would vanish at once.
import { JOB_CONNECTORS } from '../../../ingest/jobs/index.ts';
import type { HttpGet, JobConnector } from '../../../ingest/jobs/types.ts';
import { boardOfUrl } from '../../ats-links.ts';
import { urlLocator } from '../../http-url.ts';
import type { HeldRun, KindRunContext, NormalizedLocator, SourceKind } from '../../kind.ts';
import { SourceInputError } from '../../source-input-error.ts';
import type { RunCounts } from '../../tables.ts';

const BOARD_INTERVAL_MS = 6 * 3_600_000;

/** The connector that reads a careers page's JSON-LD rather than an ATS's API. */
const CAREERS_PAGE = 'jsonld';

/** A board's token, or a link to the board (which may bring the API origin of another instance of its ATS). */
function boardLocator(type: string, text: string): NormalizedLocator {
  if (!text) throw new SourceInputError(`a ${type} source needs a locator (the board token)`);
  let board = text;
  let baseUrl: string | undefined;
  if (/^https?:\/\//i.test(text)) {
    const ref = boardOfUrl(text);
    if (!ref || ref.type !== type) throw new SourceInputError(`${text} is not a link to a ${type} board`);
    board = ref.board;
    baseUrl = ref.baseUrl;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(board)) throw new SourceInputError(`"${board}" is not a ${type} board token`);
  return { locator: board, key: board.toLowerCase(), ...(baseUrl ? { baseUrl } : {}) };
}

async function readBoard(connector: JobConnector, context: KindRunContext): Promise<RunCounts | HeldRun> {
  const { source } = context;
  const http: HttpGet = {
    getText: (url, accept) => context.fetch.getText(url, accept),
    // One host, one fetch at a time: the detail fetches of a board run in turn.
    async mapBounded(items, task) {
      const out = [];
      for (const item of items) out.push(await task(item));
      return out;
    },
  };
  const listings = await connector.fetchBoard(http, {
    board: source.locator,
    baseUrl: source.base_url ?? undefined,
    companyName: source.company_name ?? undefined,
  });
  const company =
    source.company_name || source.company_website
      ? { name: source.company_name ?? source.company_website!, website: source.company_website }
      : null;
  // A board that names its company keeps the website the source gives, when it gives none itself.
  if (source.company_website)
    for (const l of listings) if (l.company && !l.company.website) l.company = { ...l.company, website: source.company_website };
  const summary = await context.jobs.importer.importBoard(listings, {
    source: source.type,
    board: source.locator,
    now: context.now,
    company,
    expireMissing: true,
    allowMassExpiry: context.allowMassExpiry,
    mergeIndex: !context.deferIndexMerge,
  });
  const counts = {
    read: summary.read,
    inserted: summary.inserted,
    updated: summary.updated,
    expired: summary.expired ?? 0,
    refused: summary.rejectedTotal,
  };
  if (summary.expiryHeld)
    return {
      held: `expiry held: ${summary.expiryHeld.vanished} of the board's ${summary.expiryHeld.live} live listings vanished at once (more often a broken fetch than an emptied board); nothing was expired. Run it with --allow-mass-expiry if the board really lost them, or resume it.`,
      counts,
    };
  return counts;
}

function boardKind(connector: JobConnector): SourceKind {
  const type = connector.source;
  const careersPage = type === CAREERS_PAGE;
  return {
    type,
    family: 'board',
    defaultIntervalMs: BOARD_INTERVAL_MS,
    // An ATS's public job-board API may be read from a copy the operator runs; a careers page is the company's own.
    ...(careersPage ? { honoursRobots: true } : { mirrorName: type }),
    normalizeLocator: (locator) => (careersPage ? urlLocator(type, locator) : boardLocator(type, locator)),
    read: (context) => readBoard(connector, context),
  };
}

/** A kind for each job connector, in the connectors' order. */
export const BOARD_KINDS: SourceKind[] = Object.values(JOB_CONNECTORS).map(boardKind);
