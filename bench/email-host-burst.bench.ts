// One busy mail host (issue 14): a burst of addresses of one domain at the single-address path,
// against the bound its politeness limits set, and against the same engine asking one recipient
// per transaction (the baseline, measured in the same run).
//   npm run bench -- email-host-burst                 200 addresses, concurrency 50
//   npm run bench -- email-host-burst --addresses=N --concurrency=C
// The host allows 5 connections and answers each RCPT 20 ms late, one command at a time per
// connection (as SMTP servers do): no client can take less than ceil(N / 5) x 20 ms.
import { createEmailValidationService } from '../src/email/service.ts';
import { openSqlite } from '../test/support/db.ts';
import { startMailWorld } from '../test/support/fake-smtp.ts';
import { fmt, ratio } from './support/stats.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ADDRESSES = arg('addresses', 200);
const CONCURRENCY = arg('concurrency', 50);
const CONNECTIONS = 5;
const REPLY_MS = 20;

const world = await startMailWorld();
const database = await openSqlite();

async function run(label: string, rcptsPerTransaction: number, domain: string) {
  const mailboxes = Array.from({ length: ADDRESSES }, (_, i) => `u${i}`);
  const mx = await world.domain(domain, { mailboxes, tarpitMs: REPLY_MS });
  const service = createEmailValidationService({
    db: database.db,
    dialect: database.dialect,
    config: { ...world.emailConfig, maxSessionsPerMxHost: CONNECTIONS, domainSessionsPerMinute: 1_000_000, rcptsPerTransaction },
    recheckWorker: false,
  });
  // The domain's catch-all verdict is known before the burst, as it is for any list's second address.
  await service.validate({ email: `u0@${domain}` });
  const latencies: number[] = [];
  let correct = 0;
  let next = 1;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ADDRESSES) {
        const email = `u${next++}@${domain}`;
        const t0 = performance.now();
        const result = await service.validate({ email });
        latencies.push(performance.now() - t0);
        if (result.email_status === 'valid') correct += 1;
      }
    }),
  );
  const ms = performance.now() - started;
  await service.close();
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95)];
  console.log(
    `${label.padEnd(34)} ${fmt(((ADDRESSES - 1) / ms) * 1000)} validations/s   ${fmt(ms)} ms   p95 ${fmt(p95)} ms   ` +
      `${mx.transactions()} transactions   correct ${correct}/${ADDRESSES - 1}`,
  );
  return ms;
}

const bound = Math.ceil((ADDRESSES - 1) / CONNECTIONS) * REPLY_MS;
console.log(
  `email host burst: ${ADDRESSES} addresses of one domain at concurrency ${CONCURRENCY}; the host allows ${CONNECTIONS} connections ` +
    `and answers each RCPT ${REPLY_MS} ms late, so the bound is ${bound} ms`,
);
try {
  const single = await run('one recipient per transaction', 1, 'burst-single.test');
  const shared = await run('shared transactions (default)', 50, 'burst-shared.test');
  console.log(`time / bound: one recipient per transaction ${ratio(single, bound)}, shared ${ratio(shared, bound)}`);
  console.log(`speed-up of shared transactions: ${ratio(single, shared)}`);
} finally {
  await world.close();
  await database.destroy();
}
