// Recognises a link to a supported applicant-tracking system's public board and names the board:
// what discovery looks for on a company's site, and what `sources add` accepts in place of a token.

export interface BoardRef {
  /** The job connector that reads the board. */
  type: string;
  /** Board token, company slug or identifier, as the connector's API wants it. */
  board: string;
  /** The API origin to read it at, when not the connector's usual one (Lever's EU instance). */
  baseUrl?: string;
}

/** Lever's EU instance: its boards are read through its own API host. */
const LEVER_EU_API = 'https://api.eu.lever.co';

/** Path segments that are an ATS's own pages, never a board. */
const NOT_BOARDS = new Set(['embed', 'api', 'v0', 'v1', 'j', 'jobs', 'static', 'assets', 'favicon.ico', 'robots.txt', 'sitemap.xml']);
/** Subdomains that are an ATS's own sites, never a company's. */
const OWN_SUBDOMAINS = new Set(['www', 'app', 'api', 'jobs', 'careers', 'help', 'support', 'blog', 'docs', 'status', 'boards']);

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

function firstSegment(url: URL): string | null {
  const segment = decodeURIComponent(url.pathname.split('/').filter(Boolean)[0] ?? '');
  return segment && TOKEN.test(segment) && !NOT_BOARDS.has(segment.toLowerCase()) ? segment : null;
}

function segmentAfter(url: URL, path: string[]): string | null {
  const segments = url.pathname.split('/').filter(Boolean);
  const at = segments.findIndex((_, i) => path.every((p, k) => segments[i + k]?.toLowerCase() === p));
  const segment = at < 0 ? undefined : segments[at + path.length];
  return segment && TOKEN.test(decodeURIComponent(segment)) ? decodeURIComponent(segment) : null;
}

function subdomainOf(host: string, suffix: string): string | null {
  if (!host.endsWith(suffix)) return null;
  const label = host.slice(0, -suffix.length);
  return /^[a-z0-9][a-z0-9-]{0,62}$/.test(label) && !OWN_SUBDOMAINS.has(label) ? label : null;
}

/** A web address and its host as compared (lower case, no trailing dot), or null when it is not one. */
function webUrl(text: string): { url: URL; host: string } | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return { url, host: url.hostname.toLowerCase().replace(/\.$/, '') };
}

/** The board a URL points at, or null when it is not a supported ATS board (or cannot be told). */
export function boardOfUrl(text: string): BoardRef | null {
  const parsed = webUrl(text);
  if (!parsed) return null;
  const { url, host } = parsed;
  const ref = (type: string, board: string | null): BoardRef | null => (board ? { type, board } : null);
  switch (host) {
    // EU-hosted boards' pages have an EU host; their postings come from the same board API.
    case 'boards.greenhouse.io':
    case 'job-boards.greenhouse.io':
    case 'boards.eu.greenhouse.io':
    case 'job-boards.eu.greenhouse.io':
      // The embed script and iframe name the board in a query parameter.
      return ref('greenhouse', url.searchParams.get('for') ?? firstSegment(url));
    case 'boards-api.greenhouse.io':
      return ref('greenhouse', segmentAfter(url, ['v1', 'boards']));
    case 'jobs.lever.co':
      return ref('lever', firstSegment(url));
    case 'api.lever.co':
      return ref('lever', segmentAfter(url, ['v0', 'postings']));
    case 'jobs.eu.lever.co': {
      const board = firstSegment(url);
      return board ? { type: 'lever', board, baseUrl: LEVER_EU_API } : null;
    }
    case 'api.eu.lever.co': {
      const board = segmentAfter(url, ['v0', 'postings']);
      return board ? { type: 'lever', board, baseUrl: LEVER_EU_API } : null;
    }
    case 'jobs.ashbyhq.com':
      return ref('ashby', firstSegment(url));
    case 'api.ashbyhq.com':
      return ref('ashby', segmentAfter(url, ['job-board']));
    case 'apply.workable.com':
      return ref('workable', segmentAfter(url, ['accounts']) ?? firstSegment(url));
    case 'careers.smartrecruiters.com':
    case 'jobs.smartrecruiters.com':
      return ref('smartrecruiters', firstSegment(url));
    case 'api.smartrecruiters.com':
      return ref('smartrecruiters', segmentAfter(url, ['companies']));
  }
  const recruitee = subdomainOf(host, '.recruitee.com');
  if (recruitee) return { type: 'recruitee', board: recruitee };
  const personio = subdomainOf(host, '.jobs.personio.de') ?? subdomainOf(host, '.jobs.personio.com');
  if (personio) return { type: 'personio', board: personio };
  // Personio's older host form, NAME-jobs.personio.de: retired in 2021 for NAME.jobs.personio.de,
  // but still linked from many sites. It names the same board, read at its current host.
  const olderPersonio = /^([a-z0-9][a-z0-9-]{0,62})-jobs\.personio\.de$/.exec(host)?.[1];
  if (olderPersonio) return { type: 'personio', board: olderPersonio };
  const workable = subdomainOf(host, '.workable.com');
  if (workable) return { type: 'workable', board: workable };
  return null;
}

/** Hosts of applicant-tracking systems leadbase has no connector for, by the name users know them by. */
const OTHER_ATS: [suffix: string, name: string][] = [
  ['myworkdayjobs.com', 'Workday'],
  ['myworkdaysite.com', 'Workday'],
  ['icims.com', 'iCIMS'],
  ['bamboohr.com', 'BambooHR'],
  ['applytojob.com', 'JazzHR'],
  ['jobvite.com', 'Jobvite'],
  ['taleo.net', 'Taleo'],
  ['successfactors.com', 'SAP SuccessFactors'],
  ['successfactors.eu', 'SAP SuccessFactors'],
  ['teamtailor.com', 'Teamtailor'],
  ['breezy.hr', 'Breezy HR'],
  ['trakstar.com', 'Trakstar Hire'],
  ['jposting.net', 'JPosting'],
  ['pinpointhq.com', 'Pinpoint'],
  ['softgarden.io', 'softgarden'],
  ['join.com', 'JOIN'],
  ['ats.rippling.com', 'Rippling'],
  ['jobs.gem.com', 'Gem'],
  ['comeet.com', 'Comeet'],
  ['zohorecruit.com', 'Zoho Recruit'],
  ['zohorecruit.in', 'Zoho Recruit'],
  ['zohorecruit.eu', 'Zoho Recruit'],
  ['paylocity.com', 'Paylocity'],
  ['csod.com', 'Cornerstone'],
  ['eightfold.ai', 'Eightfold'],
  ['ultipro.com', 'UKG'],
  ['dayforcehcm.com', 'Dayforce'],
  ['recruiterbox.com', 'Recruiterbox'],
  ['homerun.co', 'Homerun'],
];

/**
 * The applicant-tracking system a URL belongs to when it is one leadbase does not read (Workday,
 * iCIMS…), so discovery can say where a company's jobs are rather than that it found nothing.
 */
export function otherAtsOfUrl(text: string): string | null {
  const host = webUrl(text)?.host;
  if (!host) return null;
  for (const [suffix, name] of OTHER_ATS) if (host === suffix || host.endsWith(`.${suffix}`)) return name;
  return null;
}
