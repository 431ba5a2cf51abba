// A local Wikidata Query Service: answers GET /sparql?query=… from recorded WDQS answers
// (test/fixtures/real/wikidata, and test/fixtures/wikidata) the way the service would: a listing
// query (items of a class with a website) with the items' QIDs, a detail query (VALUES ?company
// { … }) with the recorded rows of the items asked for. Like the service it refuses requests
// without a User-Agent, and answers 429 with Retry-After to a second query while one is running.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

type Term = { type: string; value: string; datatype?: string; 'xml:lang'?: string };
type Binding = Record<string, Term>;

const ENTITY = 'http://www.wikidata.org/entity/';
const BUSINESS = 'Q4830453';
const FIXTURE_DIRS = ['../../fixtures/real/wikidata', '../../fixtures/wikidata'].map((d) => fileURLToPath(new URL(d, import.meta.url)));

/** Every recorded row, by the QID of its ?company. */
export function recordedRows(): Map<string, Binding[]> {
  const byQid = new Map<string, Binding[]>();
  for (const dir of FIXTURE_DIRS)
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { results: { bindings: Binding[] } };
      for (const row of doc.results.bindings) {
        const qid = row.company?.value.slice(ENTITY.length);
        if (!qid) continue;
        byQid.set(qid, [...(byQid.get(qid) ?? []), row]);
      }
    }
  return byQid;
}

/**
 * `count` companies made from the recorded ones: each a copy of a recorded company's rows under a
 * new QID, with its own name and website. QIDs are about 430 apart, as the few hundred thousand
 * companies with a website are among Wikidata's ~130 million item ids.
 */
export function scaledRows(count: number): Map<string, Binding[]> {
  const templates = [...recordedRows().values()];
  const out = new Map<string, Binding[]>();
  for (let i = 0; i < count; i++) {
    const qid = `Q${1000 + i * 430 + ((i * 7919) % 430)}`;
    const template = templates[i % templates.length];
    out.set(
      qid,
      template.map((row) => {
        const copy: Binding = { ...row, company: { type: 'uri', value: `${ENTITY}${qid}` } };
        if (row.companyLabel) copy.companyLabel = { ...row.companyLabel, value: `${row.companyLabel.value} ${i}` };
        if (row.website) copy.website = { type: 'uri', value: `https://company-${i}.example.com/` };
        // A ticker names one listed company: each copy has its own.
        if (row.ticker) copy.ticker = { ...row.ticker, value: `${row.ticker.value}${i}` };
        return copy;
      }),
    );
  }
  return out;
}

export interface WikidataUpstreamOptions {
  /** The rows served, by QID (default: the recorded ones). */
  rows?: Map<string, Binding[]>;
  /** How long each answer takes (the service's latency). */
  latencyMs?: number;
}

interface Failure {
  kind?: 'listing' | 'detail';
  /** Let this many matching queries through first. */
  skip?: number;
  status: number;
  retryAfter?: string;
  body?: string;
}

export interface WikidataUpstream {
  name: string;
  url: string;
  /** Every request: which query it was and its User-Agent. */
  log: { kind: 'listing' | 'detail' | 'other'; userAgent: string | undefined; status: number }[];
  /** Most queries that ran at once. */
  peakConcurrent: number;
  /** The next answers (to a query of `kind`, when given) are these instead: a status, its Retry-After, a body. */
  failNext(...answers: Failure[]): void;
  close(): Promise<void>;
}

const classesOf = (rows: Binding[]) => rows.filter((r) => r.class).map((r) => r.class.value.slice(ENTITY.length));

function results(vars: string[], bindings: Binding[]): string {
  // WDQS's own layout: pretty-printed with " : ".
  return JSON.stringify({ head: { vars }, results: { bindings } }, null, 2).replace(/": /g, '" : ');
}

export async function startWikidataUpstream(options: WikidataUpstreamOptions = {}): Promise<WikidataUpstream> {
  const rows = options.rows ?? recordedRows();
  const failures: Failure[] = [];
  let running = 0;
  const upstream: Omit<WikidataUpstream, 'url' | 'close'> = {
    name: 'wikidata',
    log: [],
    peakConcurrent: 0,
    failNext: (...answers) => failures.push(...answers),
  };

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = url.searchParams.get('query') ?? '';
    const kind = /VALUES \?company \{/.test(query) ? 'detail' : /wdt:P856/.test(query) ? 'listing' : 'other';
    const userAgent = req.headers['user-agent'];
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      upstream.log.push({ kind, userAgent, status });
      res.writeHead(status, {
        'content-type': status === 200 ? 'application/sparql-results+json;charset=utf-8' : 'text/plain',
        ...headers,
      });
      res.end(body);
    };
    if (url.pathname !== '/sparql' || req.method !== 'GET') return send(404, 'Not found');
    if (!userAgent) return send(403, 'Please set a user-agent and respect our robot policy https://w.wiki/4wJS.');
    if (running > 0) return send(429, 'Too Many Requests - Please retry in 1 seconds.', { 'retry-after': '1' });
    running++;
    upstream.peakConcurrent = Math.max(upstream.peakConcurrent, running);
    try {
      if (options.latencyMs) await sleep(options.latencyMs);
      const at = failures.findIndex((f) => !f.kind || f.kind === kind);
      let failure = at >= 0 ? failures[at] : undefined;
      if (failure?.skip) {
        failure.skip--;
        failure = undefined;
      } else if (failure) failures.splice(at, 1);
      if (failure) return send(failure.status, failure.body ?? 'error', failure.retryAfter ? { 'retry-after': failure.retryAfter } : {});
      if (kind === 'listing') {
        const cls = /wdt:P31 wd:(Q\d+)/.exec(query)?.[1];
        const listed = [...rows].filter(([, r]) => {
          const classes = classesOf(r);
          return classes.length ? classes.includes(cls ?? '') : cls === BUSINESS;
        });
        return send(
          200,
          results(
            ['company'],
            listed.map(([qid]) => ({ company: { type: 'uri', value: `${ENTITY}${qid}` } })),
          ),
        );
      }
      if (kind === 'detail') {
        const qids = [.../VALUES \?company \{([^}]*)\}/.exec(query)![1].matchAll(/wd:(Q\d+)/g)].map((m) => m[1]);
        const bindings = qids.flatMap((q) => rows.get(q) ?? []);
        const vars = [...new Set(['company', ...bindings.flatMap((b) => Object.keys(b))])];
        return send(200, results(vars, bindings));
      }
      return send(400, 'MalformedQueryException: this server answers the leadbase company queries only');
    } finally {
      running--;
    }
  };

  const server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...upstream,
    get peakConcurrent() {
      return upstream.peakConcurrent;
    },
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mirror every data source offers to the bootstrap test: the recorded answers. */
export async function startMirror(): Promise<{ name: string; url: string; close(): Promise<void> }> {
  return startWikidataUpstream();
}
