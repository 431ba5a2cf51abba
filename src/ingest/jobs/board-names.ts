// The company a Lever or Ashby board belongs to, read from the board's own public page: their
// posting APIs name no company, and a board token (`gotogroup`) is not a name anyone searches for.
// Lever's page is titled with the company's name; Ashby's page carries its organization (name and
// website) in the application data it embeds. docs/jobs.md, "Which company a board is".
import { decodeEntities } from '../../jobs/normalize/html-text.ts';
import { trimSlash, type ConnectorContext, type HttpGet } from './types.ts';
import type { SourceCompany } from '../../jobs/input.ts';

/** Titles a page has when it names no company (an ATS's own shell or error page). */
const GENERIC_TITLES = new Set(['', 'jobs', 'lever', 'ashby', 'careers', 'job board', 'not found', '404', 'page not found', 'error']);

/** The text of a page's <title>, entities decoded and spaces collapsed; undefined when it has none. */
export function pageTitle(html: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!match) return undefined;
  const title = decodeEntities(match[1]).replace(/\s+/g, ' ').trim();
  return GENERIC_TITLES.has(title.toLowerCase()) ? undefined : title;
}

/** The JSON value that starts at `from` in `text` (an object or array), by bracket counting outside strings. */
function jsonValueAt(text: string, from: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return JSON.parse(text.slice(from, i + 1));
    }
  }
  throw new Error('unterminated JSON');
}

/** The organization an Ashby board page embeds (`window.__appData`), or undefined when it names none. */
export function ashbyOrganization(html: string): SourceCompany | undefined {
  const at = /window\.__appData\s*=\s*/.exec(html);
  if (!at) return undefined;
  const start = at.index + at[0].length;
  if (html[start] !== '{') return undefined;
  let data: unknown;
  try {
    data = jsonValueAt(html, start);
  } catch {
    return undefined;
  }
  const org = (data as { organization?: { name?: unknown; publicWebsite?: unknown } | null }).organization;
  const name = typeof org?.name === 'string' ? org.name.trim() : '';
  if (!name) return undefined;
  const website =
    typeof org?.publicWebsite === 'string' && /^https?:\/\//i.test(org.publicWebsite.trim()) ? org.publicWebsite.trim() : null;
  return { name, website };
}

/** Where a board's public page is: the ATS's page host for its own API hosts, else the given origin (a mirror serves both). */
export function boardPageUrl(ctx: ConnectorContext, pageHosts: Record<string, string>, defaultApi: string): string {
  const api = trimSlash(ctx.baseUrl ?? defaultApi);
  const page = pageHosts[api.toLowerCase()] ?? api;
  return `${page}/${encodeURIComponent(ctx.board)}`;
}

/** The error a board gets when neither its source nor its page names the company. */
export class UnnamedBoardError extends Error {
  constructor(source: string, board: string, why: string) {
    super(
      `the ${source} board "${board}" names no company (${why}); its postings are not stored under the board token. ` +
        `Register it with the company's name: leadbase sources add ${source} ${board} --company-name "…" ` +
        `(or leadbase import jobs --source ${source} --board ${board} --company-name "…")`,
    );
  }
}

/**
 * The company of a board whose API names none, as its page says: undefined when the source names
 * the company (that name is used, and nothing is fetched); an UnnamedBoardError when neither does.
 */
export async function companyOfBoard(
  http: HttpGet,
  ctx: ConnectorContext,
  source: string,
  pageUrl: string,
  read: (html: string) => SourceCompany | undefined,
): Promise<SourceCompany | undefined> {
  if (ctx.companyName?.trim()) return undefined;
  let html: string;
  try {
    html = await http.getText(pageUrl, 'text/html');
  } catch (error) {
    throw new UnnamedBoardError(source, ctx.board, `its page ${pageUrl} could not be read: ${(error as Error).message}`);
  }
  const company = read(html);
  if (!company) throw new UnnamedBoardError(source, ctx.board, `its page ${pageUrl} gives no company name`);
  return company;
}
