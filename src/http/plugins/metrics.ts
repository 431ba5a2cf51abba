import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Counter, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

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

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

/** One route's requests: counts by status and a latency histogram (per bucket, not yet cumulative). */
interface RouteTally {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Request counts and latencies, tallied per route in plain numbers on the hot path and handed to
 * prom-client at scrape time: its labelled counters and histograms hash the label values on every
 * observation, which cost more than the rest of this hook.
 */
function requestTallies(registry: Registry) {
  const tallies = new Map<string, Map<string, RouteTally>>();
  function tallyOf(method: string, route: string): RouteTally {
    let byRoute = tallies.get(method);
    if (!byRoute) tallies.set(method, (byRoute = new Map()));
    let tally = byRoute.get(route);
    if (!tally) {
      tally = { method, route, byStatus: new Map(), buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      byRoute.set(route, tally);
    }
    return tally;
  }
  const all = () => [...tallies.values()].flatMap((byRoute) => [...byRoute.values()]);
  registry.registerMetric({
    name: 'leadbase_http_requests_total',
    help: 'HTTP requests, by route and status',
    get: () => ({
      name: 'leadbase_http_requests_total',
      help: 'HTTP requests, by route and status',
      type: 'counter',
      aggregator: 'sum',
      values: all().flatMap((t) =>
        [...t.byStatus].map(([status, value]) => ({ labels: { method: t.method, route: t.route, status: String(status) }, value })),
      ),
    }),
  } as unknown as Metric);
  const histogram = 'leadbase_http_request_duration_seconds';
  registry.registerMetric({
    name: histogram,
    help: 'HTTP request latency, by route',
    get: () => ({
      name: histogram,
      help: 'HTTP request latency, by route',
      type: 'histogram',
      aggregator: 'sum',
      values: all().flatMap((t) => {
        let cumulative = 0;
        const labels = { method: t.method, route: t.route };
        return [
          ...t.buckets.map((n, i) => {
            cumulative += n;
            const le = i < LATENCY_BUCKETS.length ? String(LATENCY_BUCKETS[i]) : '+Inf';
            return { metricName: `${histogram}_bucket`, labels: { le, ...labels }, value: cumulative };
          }),
          { metricName: `${histogram}_sum`, labels, value: t.sum },
          { metricName: `${histogram}_count`, labels, value: t.count },
        ];
      }),
    }),
  } as unknown as Metric);
  return {
    record(method: string, route: string, status: number, seconds: number): void {
      const tally = tallyOf(method, route);
      tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]) bucket++;
      tally.buckets[bucket]++;
      tally.sum += seconds;
      tally.count++;
    },
  };
}

async function metricsPlugin(app: FastifyInstance, options: { metrics: Metrics }): Promise<void> {
  const { registry } = options.metrics;
  const requests = requestTallies(registry);
  app.addHook('onResponse', (request, reply, done) => {
    // Unknown paths share one label so scanners cannot blow up the series count.
    requests.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

export default fp(metricsPlugin, { name: 'metrics' });
