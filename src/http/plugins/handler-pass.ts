import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * Route handlers run in a second pass of each turn of the event loop: every request that arrived in
 * the turn is first read, routed, authenticated, rate-limited and checked for payment; then the
 * handlers run one after another and the answers go out. The work is the same, but each stage's
 * code stays in the CPU's caches across a whole batch instead of being evicted by the other stages
 * at every request: under load this took a quarter to a third off the server's CPU time per request
 * (docs/benchmarks.md, Platform). A request alone in its turn waits only for the end of that turn,
 * and reads asked for by the handlers of one pass can share one trip to the database (see
 * BillingService.balance).
 */
async function handlerPassPlugin(app: FastifyInstance): Promise<void> {
  let waiting: (() => void)[] = [];
  const runWaiting = () => {
    const batch = waiting;
    waiting = [];
    for (const proceed of batch) {
      try {
        proceed();
      } catch (error) {
        // Fastify answers a failing handler itself; this is a failure of Fastify's own step, and the
        // rest of the batch must still run.
        app.log.error({ err: { message: (error as Error).message } }, 'a request could not proceed to its handler');
      }
    }
  };
  // The last preHandler hook (registered after billing's pay-before-work check).
  app.addHook('preHandler', (_request, _reply, done) => {
    if (waiting.push(done) === 1) setImmediate(runWaiting);
  });
}

export default fp(handlerPassPlugin, { name: 'handler-pass', dependencies: ['billing'] });
