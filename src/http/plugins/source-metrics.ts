// Freshness on /metrics: per source type, runs, failures, 304s and listings changed (this
// instance's counts since start; sum them across instances), and the age of the oldest successful
// fetch among active sources (read from the registry at scrape time, the same for every instance).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Services } from '../../services.ts';

export function registerSourceMetrics(registry: Registry, sources: Services['sources']): void {
  const perType = (
    name: string,
    help: string,
    value: (t: { runs: number; failures: number; notModified: number; held: number; listingsChanged: number }) => number,
  ) =>
    new Counter({
      name,
      help,
      labelNames: ['type'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [type, tally] of sources.scheduler.tallies) this.inc({ type }, value(tally));
      },
    });
  perType('leadbase_source_runs_total', 'Source runs by this instance, by source type', (t) => t.runs);
  perType('leadbase_source_failures_total', 'Source runs that failed, by source type', (t) => t.failures);
  perType('leadbase_source_not_modified_total', 'Source runs answered 304 Not Modified, by source type', (t) => t.notModified);
  perType('leadbase_source_held_total', 'Source runs held for the operator (mass expiry), by source type', (t) => t.held);
  perType(
    'leadbase_source_listings_changed_total',
    'Listings or records inserted, updated or expired by source runs, by source type',
    (t) => t.listingsChanged,
  );
  new Gauge({
    name: 'leadbase_sources_oldest_success_age_seconds',
    help: 'Seconds since the oldest last successful fetch among active sources (since it was added, for one never fetched)',
    registers: [registry],
    async collect() {
      try {
        const fresh = await sources.registry.freshness();
        const oldest = fresh.oldestSuccessAt;
        this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
      } catch {
        // The database is down: the last value stands; /readyz says why.
      }
    },
  });
  new Gauge({
    name: 'leadbase_sources',
    help: 'Registered sources, by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      try {
        const fresh = await sources.registry.freshness();
        this.reset();
        for (const status of ['active', 'paused', 'held']) this.set({ status }, fresh.byStatus[status] ?? 0);
      } catch {
        // as above
      }
    },
  });
}
