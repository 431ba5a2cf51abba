// GET /bulk/{id}/stream (docs/bulk.md, "Stream"): a job's progress as Server-Sent Events. The job is
// read from the database every `pollMs`, so any instance serves any job's stream, whichever one
// works it; an event is sent when the figures change, a comment line every `heartbeatMs` keeps
// proxies from closing an idle stream, and the stream ends after the job does, or when the client goes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BulkJobView } from '../bulk/service.ts';

const FINISHED = new Set(['done', 'cancelled', 'failed']);

export interface StreamTiming {
  /** How often the job is read (default 1 s). */
  pollMs: number;
  /** How often a heartbeat comment is sent while nothing changes (default 15 s). */
  heartbeatMs: number;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Streams `read()` (the job, null once it is gone) until it ends. The first read is made by the
 * caller (a missing job is its 404, answered before the stream starts). `closing` aborts when the
 * server shuts down: the stream ends, so that the server's close does not wait for the job.
 */
export async function streamJob(
  request: FastifyRequest,
  reply: FastifyReply,
  first: BulkJobView,
  read: () => Promise<BulkJobView | null>,
  timing: StreamTiming,
  closing: AbortSignal,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and its kin buffer responses unless told not to.
    'x-accel-buffering': 'no',
    'x-request-id': String(request.id),
  });
  let open = true;
  let wake: (() => void) | undefined;
  const gone = () => {
    open = false;
    wake?.();
  };
  request.raw.on('close', gone);
  raw.on('close', gone);
  closing.addEventListener('abort', gone);
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  try {
    // A client reconnecting after a drop is told how long to wait first.
    raw.write(`retry: ${timing.pollMs}\n\n`);
    let job: BulkJobView | null = first;
    let last = '';
    let quietSince = Date.now();
    while (open && job) {
      const figures = JSON.stringify(job);
      if (figures !== last) {
        last = figures;
        quietSince = Date.now();
        raw.write(frame(FINISHED.has(job.status) ? 'end' : 'progress', job));
      } else if (Date.now() - quietSince >= timing.heartbeatMs) {
        quietSince = Date.now();
        raw.write(`: heartbeat ${new Date().toISOString()}\n\n`);
      }
      if (FINISHED.has(job.status)) break;
      await pause(timing.pollMs);
      if (!open) break;
      job = await read();
    }
  } catch (error) {
    // The database went away mid-stream: the client is told, and reconnects after `retry`.
    if (open) raw.write(frame('error', { error: 'unavailable', message: (error as Error).message }));
    request.log.warn({ err: error }, 'bulk job stream stopped');
  } finally {
    request.raw.off('close', gone);
    raw.off('close', gone);
    closing.removeEventListener('abort', gone);
    if (!raw.writableEnded) raw.end();
  }
}
