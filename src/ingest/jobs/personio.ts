// Personio XML feed: GET https://{company}.jobs.personio.de/xml?language=en
import { XMLParser } from 'fast-xml-parser';
import { parseInstant, trimSlash, type JobConnector, type SourceListing } from './types.ts';
import { PayloadShapeError } from './shape.ts';

interface PersonioPosition {
  id: string | number;
  subcompany?: string;
  office?: string;
  additionalOffices?: { office?: string | string[] } | '';
  name: string;
  jobDescriptions?: { jobDescription?: { name?: string; value?: string } | { name?: string; value?: string }[] };
  employmentType?: string;
  seniority?: string;
  schedule?: string;
  createdAt?: string;
  /** Published pay: min, max, currencyCode (or currencySymbol) and the period, possibly one element deeper. */
  salaryInformation?: PersonioSalary | Record<string, PersonioSalary | string> | string;
}

interface PersonioSalary {
  min?: string;
  max?: string;
  currencyCode?: string;
  currencySymbol?: string;
  type?: string;
}

/** The feed's structured pay, when it carries one; the text of the ad is read only without it. */
function salaryOf(info: PersonioPosition['salaryInformation']): SourceListing['salary'] {
  if (!info || typeof info !== 'object') return null;
  const fields = ('min' in info || 'max' in info ? info : Object.values(info).find((v) => v && typeof v === 'object')) as
    PersonioSalary | undefined;
  if (!fields) return null;
  const amount = (v: unknown) => (typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null);
  const min = amount(fields.min);
  const max = amount(fields.max);
  if (!min && !max) return null;
  const code = fields.currencyCode?.trim() || fields.currencySymbol?.trim();
  return { min, max, currency: code && /^[A-Za-z]{3}$/.test(code) ? code.toUpperCase() : null };
}

const asArray = <T>(v: T | T[] | undefined | null): T[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, cdataPropName: false });

export function parsePersonioXml(xml: string, board: string, origin: string): SourceListing[] {
  let doc: { 'workzag-jobs'?: { position?: PersonioPosition | PersonioPosition[] } | '' };
  try {
    doc = parser.parse(xml, true) as typeof doc;
  } catch (error) {
    throw new PayloadShapeError(`not a Personio XML feed: not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  // An empty feed is <workzag-jobs/> (parsed as ""): a board with no open positions.
  const root = doc['workzag-jobs'];
  if (root === undefined) {
    const found = Object.keys(doc).filter((k) => !k.startsWith('?'));
    throw new PayloadShapeError(
      `not a Personio XML feed: expected a <workzag-jobs> document; found ${found.length ? `<${found[0]}>` : 'no XML element'}`,
    );
  }
  return asArray(root === '' ? undefined : root.position).map((p) => {
    const extra = p.additionalOffices && typeof p.additionalOffices === 'object' ? asArray(p.additionalOffices.office) : [];
    const offices = [p.office, ...extra].filter((o): o is string => typeof o === 'string' && !!o.trim());
    const sections = asArray(p.jobDescriptions?.jobDescription);
    return {
      sourceId: String(p.id),
      title: String(p.name).trim(),
      location: [...new Set(offices)].join('; '),
      employmentTypes: [p.schedule, p.employmentType].filter((t): t is string => !!t),
      publishedAt: parseInstant(p.createdAt),
      descriptionHtml: sections.map((s) => `<h3>${s.name ?? ''}</h3>${s.value ?? ''}`).join('\n'),
      applyUrl: `${origin}/job/${encodeURIComponent(String(p.id))}`,
      experience: p.seniority ?? null,
      salary: salaryOf(p.salaryInformation),
      company: p.subcompany ? { name: p.subcompany } : null,
    } satisfies SourceListing;
  });
}

export const personio: JobConnector = {
  source: 'personio',
  defaultBaseUrl: 'https://{board}.jobs.personio.de',
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl.replace('{board}', encodeURIComponent(ctx.board)));
    return parsePersonioXml(await http.getText(`${base}/xml?language=en`, 'application/xml'), ctx.board, base);
  },
  parsePayload(payload, ctx) {
    return parsePersonioXml(payload, ctx.board, trimSlash(ctx.baseUrl ?? this.defaultBaseUrl.replace('{board}', ctx.board)));
  },
};
