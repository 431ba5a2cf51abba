// Worker thread of NormalizerWorker (normalize-pool.ts): normalizes the postings it is sent, in the
// order sent, so an import normalizes on this core while its main thread stores.
import { parentPort } from 'node:worker_threads';
import { normalizeOutcome, type NormalizeContext, type NormalizeOutcome } from './listing.ts';
import type { SourceListing } from './input.ts';
import { withTermsBinary } from './tsvector-binary.ts';

export interface NormalizeRequest {
  id: number;
  raws: SourceListing[];
  ctx: NormalizeContext;
  /** Also make each listing's job_terms vector (PostgreSQL stores): off the importing thread. */
  terms: boolean;
}

export type NormalizeReply = { ready: true } | { id: number; outcomes: NormalizeOutcome[] };

if (parentPort) {
  const port = parentPort;
  // Loads the city index and compiles the hot paths before the importer is told to send work.
  normalizeOutcome(
    {
      sourceId: 'warm-up',
      title: 'Senior Engineer',
      location: 'Berlin, Germany; Remote',
      employmentTypes: ['Full-time'],
      publishedAt: 0,
      descriptionHtml: '<p>We are hiring an engineer to join our team and help us build the product.</p>',
      applyUrl: 'https://example.com',
    },
    { source: 'warm-up', board: 'warm-up', now: 0 },
  );
  port.on('message', (request: NormalizeRequest) => {
    const outcomes = request.raws.map((raw) => normalizeOutcome(raw, request.ctx));
    port.postMessage({ id: request.id, outcomes: request.terms ? outcomes.map(withTermsBinary) : outcomes } satisfies NormalizeReply);
  });
  port.postMessage({ ready: true } satisfies NormalizeReply);
}
