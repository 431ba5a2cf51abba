import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Adds a charge of `millicredits` (an integer) to the operation's totals. */
  recordCharge(operation: string, millicredits: number): void;
  rateLimitRefusals: Counter<'operation'>;
}

/** One registry per app, so several apps in one process (tests) do not collide. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'leadbase_' });
  // Charges are summed as integer millicredits; adding 0.05 credits in floating point would show
  // totals such as 0.44999999999999996. The credits counter is derived from the exact sum at scrape time.
  const charged = new Map<string, number>();
  const millicredits = new Counter({
    name: 'leadbase_credits_charged_millicredits_total',
    help: 'Millicredits charged (1 credit = 1000), by operation',
    labelNames: ['operation'],
    registers: [registry],
  });
  new Counter({
    name: 'leadbase_credits_charged_total',
    help: 'Credits charged, by operation',
    labelNames: ['operation'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [operation, total] of charged) this.inc({ operation }, total / 1000);
    },
  });
  return {
    registry,
    recordCharge(operation, units) {
      charged.set(operation, (charged.get(operation) ?? 0) + units);
      millicredits.inc({ operation }, units);
    },
    rateLimitRefusals: new Counter({
      name: 'leadbase_rate_limit_refusals_total',
      help: 'Requests refused with 429, by operation',
      labelNames: ['operation'],
      registers: [registry],
    }),
  };
}

async function metricsPlugin(app: FastifyInstance, options: { metrics: Metrics }): Promise<void> {
  const { registry } = options.metrics;
  const requests = new Counter({
    name: 'leadbase_http_requests_total',
    help: 'HTTP requests, by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'leadbase_http_request_duration_seconds',
    help: 'HTTP request latency, by route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers: [registry],
  });

  // Label children are cached per route: resolving labels on every observation costs more than the observation.
  type Children = { latency: ReturnType<typeof latency.labels>; byStatus: Map<number, ReturnType<typeof requests.labels>> };
  const children = new Map<string, Children>();
  app.addHook('onResponse', (request, reply, done) => {
    // Unknown paths share one label so scanners cannot blow up the series count.
    const route = request.routeOptions.url ?? 'unmatched';
    const id = `${request.method} ${route}`;
    let child = children.get(id);
    if (!child) {
      child = { latency: latency.labels(request.method, route), byStatus: new Map() };
      children.set(id, child);
    }
    let counter = child.byStatus.get(reply.statusCode);
    if (!counter) {
      counter = requests.labels(request.method, route, String(reply.statusCode));
      child.byStatus.set(reply.statusCode, counter);
    }
    counter.inc();
    child.latency.observe(reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

export default fp(metricsPlugin, { name: 'metrics' });
