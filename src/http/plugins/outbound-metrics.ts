// Outbound identities on /metrics (docs/email.md, "Outbound identities"): how many can still be
// used, how many mail servers each is quarantined at, and the quarantines this instance decided.
// Read from the pool at scrape time; this instance's view (quarantines other instances wrote are
// read every 30 s while it probes).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { OutboundPool } from '../../email/outbound.ts';

export function registerOutboundMetrics(registry: Registry, pool: OutboundPool): void {
  new Gauge({
    name: 'leadbase_email_outbound_identities_usable',
    help: 'Outbound identities on no public blocklist (the listed ones are used only where nothing else is left)',
    registers: [registry],
    collect() {
      this.set(pool.usable());
    },
  });
  new Gauge({
    name: 'leadbase_email_outbound_quarantines',
    help: 'Mail providers or hosts an outbound identity is quarantined at now (a public blocklist mark counts as one more), by identity',
    labelNames: ['identity'],
    registers: [registry],
    collect() {
      this.reset();
      for (const state of pool.states()) this.set({ identity: state.id }, state.quarantines.length);
    },
  });
  new Counter({
    name: 'leadbase_email_outbound_refusals_total',
    help: 'Replies that refused an outbound identity as a sender and quarantined it, by identity and scope (everywhere: a public blocklist named it; provider)',
    labelNames: ['identity', 'scope'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [identity, tally] of pool.tallies) {
        this.inc({ identity, scope: 'everywhere' }, tally.everywhere);
        this.inc({ identity, scope: 'provider' }, tally.provider);
      }
    },
  });
}
