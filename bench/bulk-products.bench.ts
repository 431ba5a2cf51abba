// Bulk jobs of a product (docs/bulk.md): N company_search rows (half found, half not) through
// POST /bulk, the queue and the charge, against a baseline measured in the same run: the same rows
// as single POST /company-search calls, one after another, in the same process.
//   npm run bench -- bulk-products               20,000 rows, 2,000 single calls
//   npm run bench -- bulk-products --rows=N --singles=M
import { startTestApp } from '../test/support/app.ts';
import { SAMPLE_COMPANY } from '../test/support/sample-company.ts';
import { fmt, ratio } from './support/stats.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const N = arg('rows', 20_000);
const SINGLES = arg('singles', 2_000);
const row = (i: number) => ({ company_domain: i % 2 ? `unknown-${i}.example` : 'acme-robotics.com' });

// The single calls are not held to the per-minute limit: the baseline is the work, not the limit.
const t = await startTestApp(undefined, { credits: N + SINGLES, rateLimits: { 'company-search': 1_000_000 } });
await t.services.companies.upsertCompany(SAMPLE_COMPANY, 'bench');
try {
  const singleStart = performance.now();
  for (let i = 0; i < SINGLES; i++) {
    const res = await t.post('/company-search', row(i));
    if (res.statusCode !== 200) throw new Error(`single call answered ${res.statusCode}: ${res.body}`);
  }
  const singleMs = performance.now() - singleStart;
  const perSingle = singleMs / SINGLES;

  const balance = await t.services.billing.balance(t.keyId);
  const started = performance.now();
  const res = await t.post('/bulk', { product: 'company_search', rows: Array.from({ length: N }, (_, i) => row(i)) });
  if (res.statusCode !== 202) throw new Error(`POST /bulk answered ${res.statusCode}: ${res.body}`);
  const accepted = performance.now() - started;
  const { id } = res.json<{ id: string }>();
  let job: { status: string; processed: number; found: number; credits_consumed: number };
  for (;;) {
    job = (await t.get(`/bulk/${id}`)).json();
    if (job.status === 'done' || job.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const ms = performance.now() - started;
  const charged = balance - (await t.services.billing.balance(t.keyId));
  console.log(
    `bulk company_search: ${N} rows accepted (202) in ${fmt(accepted)} ms, done in ${fmt(ms)} ms (${fmt((N / ms) * 1000)} rows/s); ` +
      `${job.processed} processed, ${job.found} found, ${fmt(charged / 1000)} credits charged (expected ${Math.ceil(N / 2)})`,
  );
  console.log(
    `baseline: ${SINGLES} single calls in ${fmt(singleMs)} ms (${fmt(perSingle, 3)} ms each); ` +
      `bulk per row ${fmt(ms / N, 3)} ms = ${ratio(ms / N, perSingle)} of a single call`,
  );
} finally {
  await t.close();
}
