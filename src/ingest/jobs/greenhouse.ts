// Greenhouse Job Board API: GET /v1/boards/{token}/jobs?content=true&pay_transparency=true
import { parseInstant, trimSlash, type JobConnector, type SourceListing, type ConnectorContext } from './types.ts';
import { Type } from '@sinclair/typebox';
import { readJsonPayload } from './shape.ts';

interface GreenhouseJob {
  id: number;
  title: string;
  updated_at?: string;
  first_published?: string;
  location?: { name?: string } | null;
  absolute_url: string;
  language?: string | null;
  content?: string | null;
  company_name?: string | null;
  metadata?: { name: string; value: unknown }[] | null;
  offices?: { name?: string; location?: string | null }[] | null;
  pay_input_ranges?: { min_cents?: number; max_cents?: number; currency_type?: string }[] | null;
}

/** What the Job Board API's jobs endpoint returns: the fields that tell it apart (a posting's detail has no "jobs"). */
const GreenhouseBoard = Type.Object({ jobs: Type.Array(Type.Object({ id: Type.Number(), title: Type.String() })) });

/** The board's name from its own endpoint, when that answered with one. */
function boardNameOf(text: string): string | undefined {
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

function metadataText(job: GreenhouseJob, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const m of job.metadata ?? []) {
    if (!pattern.test(m.name)) continue;
    if (typeof m.value === 'string') out.push(m.value);
    else if (Array.isArray(m.value)) out.push(...m.value.filter((v): v is string => typeof v === 'string'));
  }
  return out;
}

function toListing(job: GreenhouseJob): SourceListing {
  const pay = job.pay_input_ranges?.[0];
  return {
    sourceId: String(job.id),
    title: job.title.trim(),
    location: job.location?.name?.trim() ?? '',
    employmentTypes: metadataText(job, /employment|job type|time type/i),
    publishedAt: parseInstant(job.first_published) ?? parseInstant(job.updated_at),
    descriptionHtml: job.content ?? '',
    applyUrl: job.absolute_url,
    language: job.language ?? null,
    salary:
      pay && (pay.min_cents || pay.max_cents)
        ? {
            min: pay.min_cents != null ? pay.min_cents / 100 : null,
            max: pay.max_cents != null ? pay.max_cents / 100 : null,
            currency: pay.currency_type ?? null,
          }
        : null,
    experience: metadataText(job, /seniority|experience level|level/i)[0] ?? null,
    company: job.company_name ? { name: job.company_name } : null,
  };
}

export const greenhouse: JobConnector = {
  source: 'greenhouse',
  defaultBaseUrl: 'https://boards-api.greenhouse.io',
  namesBoardWhenFetched: true,
  async fetchBoard(http, ctx) {
    const base = trimSlash(ctx.baseUrl ?? this.defaultBaseUrl);
    const token = encodeURIComponent(ctx.board);
    const [jobs, board] = await Promise.all([
      http.getText(`${base}/v1/boards/${token}/jobs?content=true&pay_transparency=true`),
      // A name the source gives wins over the board's, which then need not be asked for.
      ctx.companyName?.trim() ? Promise.resolve(null) : http.getText(`${base}/v1/boards/${token}`).catch(() => null),
    ]);
    const listings = this.parsePayload(jobs, ctx);
    const boardName = board ? boardNameOf(board) : undefined;
    if (boardName) for (const l of listings) l.company ??= { name: boardName };
    return listings;
  },
  parsePayload(payload: string, _ctx: ConnectorContext) {
    const body = readJsonPayload('Greenhouse', payload, GreenhouseBoard, 'a job board: {"jobs": [{"id": number, "title": …}, …]}');
    return (body.jobs as GreenhouseJob[]).map(toListing);
  },
};
