// The 16 workflow templates LeadMagic publishes with its n8n node, as data: each LeadMagic node's
// request as the node builds it and the fields the nodes after it read from its answer
// (test/fixtures/real/clients/leadmagic-n8n/templates.json, origin in test/fixtures/real/ORIGINS.md).
// Every request is replayed against the sample world; every field a template reads without a
// fallback is in our answer, of the type the template's expression needs; each charge follows the
// price rule. Ads nodes are pending (404 not_found at 0 credits). Reads LeadMagic's own documented
// answer lacks too ("notAnswered") are the templates' defects: reported, not checked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { priceOf } from '../support/charges.ts';
import { readField, withSampleValues } from '../support/leadmagic-replay.ts';
import { startSampleWorld, type SampleWorld } from '../support/sample-world.ts';
import { OPERATIONS, isOperationId, type ChargedOperationId, type OperationId } from '../../src/operations/catalogue.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';

interface Read {
  path: string;
  by: string;
  /** What the template's expression needs: a list it indexes or tests as non-empty, a string it splits or compares. */
  type?: 'array' | 'nonEmptyArray' | 'string' | 'boolean';
}
interface TemplateCall {
  node: string;
  item?: string;
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Why the template as published never makes this call (replayed with the values it means). */
  unreachable?: string;
  /** A node after it that throws on the answer, whatever the server. */
  crashes?: string;
  /** A body field the template takes from an earlier node's answer. */
  bodyFrom?: Record<string, { node: string; read: string; transform?: 'nameDotCom' | 'emailDomain' }>;
  ourOperation?: OperationId;
  pending?: string;
  reads?: Read[];
  readsAnyOf?: string[][];
  optionalReads?: string[];
  /** Fields LeadMagic documents that we hold no data for. */
  notHeld?: Read[];
  /** Fields read without a fallback that LeadMagic's documented answer lacks too: the template's defects. */
  notAnswered?: Read[];
}
interface TemplatesFixture {
  repository: string;
  commit: string;
  templates: { file: string; name: string; calls: TemplateCall[] }[];
}

const FIXTURE = JSON.parse(
  readFileSync(new URL('../fixtures/real/clients/leadmagic-n8n/templates.json', import.meta.url), 'utf8'),
) as TemplatesFixture;

/** The templates' own example values, as the sample world's (beside the clients' SAMPLE_VALUES). */
const TEMPLATE_VALUES: Record<string, string> = {
  'snowflake.com': 'acme-robotics.com',
  snowflake: 'Acme Robotics',
  'gong.io': 'acme-robotics.com',
  'notion.so': 'acme-robotics.com',
  'https://www.example.com/in/ivanhzhao/': 'https://www.linkedin.com/in/maria-de-la-cruz',
  'https://www.example.com/in/jesseoue/': 'https://www.linkedin.com/in/maria-de-la-cruz',
  // Someone who left the company the template watches (John Smith left Globex in 2019).
  'https://example.com/in/johnsmith': 'john-smith-42',
  'techcorp.io': 'globex.example.com',
};
/** Per template: the one person its example watches or enriches. */
const PER_TEMPLATE: Record<string, Record<string, string>> = {
  'templates/job-change-monitoring.json': { 'https://www.example.com/in/jesseoue/': 'john-smith-42', 'leadmagic.io': 'globex.example.com' },
  'templates/email-enrichment-workflow.json': { 'jesse@leadmagic.io': 'maria@acme-robotics.com' },
};

const TRANSFORMS = {
  /** competitor-analysis: name.toLowerCase().replace(/[^a-z0-9]/g, '') + '.com' */
  nameDotCom: (v: string) => `${v.toLowerCase().replace(/[^a-z0-9]/g, '')}.com`,
  /** profile-webhook-enrichment: the domain of the work email found */
  emailDomain: (v: string) => v.split('@')[1],
};

const TYPE_CHECKS: Record<NonNullable<Read['type']>, (v: unknown) => boolean> = {
  array: Array.isArray,
  nonEmptyArray: (v) => Array.isArray(v) && v.length > 0,
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
};

const present = (v: unknown) => v !== undefined && v !== null;
const isCharged = (id: OperationId): id is ChargedOperationId => 'charge' in OPERATIONS[id];

for (const target of dbTargets) {
  describe(`the n8n node's published workflow templates (${target.name})`, { skip: target.skip }, () => {
    let sample: SampleWorld;
    let t: TestApp;

    before(async () => {
      sample = await startSampleWorld(target, 100_000);
      t = sample.t;
      // The description the templates read (shortDescription || description), as a company source gives it.
      await t.services.companies.upsertCompany(
        { name: 'Acme Robotics, Inc.', domain: 'acme-robotics.com', description: 'Acme Robotics builds warehouse robots.' },
        'test',
      );
      // The roles the templates look up at their target company, through the people import.
      await runPeopleImport({
        db: t.database.db,
        companies: t.services.companies,
        source: 'jsonl',
        records: readPeopleJsonl(fileURLToPath(new URL('../fixtures/people/acme-leadership.jsonl', import.meta.url))).records,
        defaultCountry: 'US',
      });
      // A listing naming the CRM and marketing tools tech-stack-selling looks for.
      await t.services.jobs.importer.importBoard(
        [
          {
            sourceId: 'M1',
            title: 'Marketing Operations Manager',
            location: 'Austin, TX',
            employmentTypes: ['Full-time'],
            publishedAt: Date.now() - 86_400_000,
            descriptionHtml: '<p>Own our Salesforce and HubSpot setup, campaigns and reporting.</p>',
            applyUrl: 'https://jobs.example/m1',
            company: { name: 'Acme Robotics, Inc.', website: 'https://acme-robotics.com' },
          },
        ],
        { source: 'greenhouse', board: 'acme-marketing', now: Date.now() },
      );
    });
    after(() => sample?.close());

    for (const template of FIXTURE.templates) {
      it(`${template.file}: every LeadMagic call is answered as the template reads it (${FIXTURE.commit.slice(0, 7)})`, async (ctx) => {
        const values = { ...TEMPLATE_VALUES, ...PER_TEMPLATE[template.file] };
        const answers = new Map<string, Record<string, unknown>>();
        const failures: string[] = [];
        const report: string[] = [];
        for (const call of template.calls) {
          const label = `${call.node}${call.item ? ` (${call.item})` : ''}: ${call.method} ${call.path}`;
          const body = withSampleValues(call.body, values) as Record<string, unknown>;
          for (const [field, from] of Object.entries(call.bodyFrom ?? {})) {
            const value = readField(answers.get(from.node), from.read);
            // n8n sends what the expression gives: a field the earlier answer lacks is left out of the JSON.
            if (typeof value === 'string') body[field] = from.transform ? TRANSFORMS[from.transform](value) : value;
            else delete body[field];
          }
          const before = await t.services.billing.balance(t.keyId);
          const headers = Object.fromEntries(Object.entries(call.headers).map(([k, v]) => [k.toLowerCase(), v === '<key>' ? t.key : v]));
          const res = await t.inject({ method: call.method, url: call.path, headers, payload: JSON.stringify(body) });
          const charged = before - (await t.services.billing.balance(t.keyId));
          if (call.pending) {
            const ok = res.statusCode === 404 && res.json<{ error: string }>().error === 'not_found' && charged === 0;
            if (!ok)
              failures.push(`${label}: pending, expected 404 not_found at 0 credits, got ${res.statusCode} ${res.body.slice(0, 200)}`);
            report.push(`${call.node}: pending`);
            continue;
          }
          if (res.statusCode !== 200) {
            failures.push(`${label} ${JSON.stringify(body)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
            continue;
          }
          const answer = res.json<Record<string, unknown>>();
          answers.set(call.node, answer);
          for (const read of call.reads ?? []) {
            const value = readField(answer, read.path);
            if (!present(value)) failures.push(`${label}: reads ${read.path} (${read.by}), absent\n  ${res.body.slice(0, 400)}`);
            else if (read.type && !TYPE_CHECKS[read.type](value))
              failures.push(`${label}: reads ${read.path} as ${read.type} (${read.by}), got ${JSON.stringify(value)}`);
          }
          for (const anyOf of call.readsAnyOf ?? [])
            if (!anyOf.some((path) => present(readField(answer, path))))
              failures.push(`${label}: reads one of ${anyOf.join(' || ')}, none present\n  ${res.body.slice(0, 400)}`);
          const absentOptional = (call.optionalReads ?? []).filter((path) => !present(readField(answer, path)));
          const notHeld = (call.notHeld ?? []).map((r) => r.path);
          // "a || b": a field of the chain we answer all the same is said.
          const ours = (path: string) => path.split(' || ').some((p) => present(readField(answer, p)));
          const notAnswered = (call.notAnswered ?? []).map((r) => (ours(r.path) ? `${r.path} (we answer it)` : r.path));
          report.push(
            `${call.node}: ok` +
              (call.unreachable ? ' (not reached as published)' : '') +
              (call.crashes ? ' (a node after it throws)' : '') +
              (absentOptional.length ? `; optional absent: ${absentOptional.join(', ')}` : '') +
              (notHeld.length ? `; not held: ${notHeld.join(', ')}` : '') +
              (notAnswered.length ? `; read, not in LeadMagic's documented answer: ${notAnswered.join(', ')}` : ''),
          );
          const operation = call.ourOperation!;
          assert.ok(isOperationId(operation), `${label}: ${operation} is an operation`);
          if (isCharged(operation)) {
            const cost = priceOf(operation, answer);
            if (Math.round((answer.credits_consumed as number) * 1000) !== cost || charged !== cost)
              failures.push(`${label}: credits_consumed ${String(answer.credits_consumed)}, charged ${charged}, price rule ${cost}`);
          }
        }
        ctx.diagnostic(`${template.file}: ${report.join(' | ')}`);
        assert.deepEqual(failures, [], failures.join('\n'));
      });
    }

    it('the sample world holds what the templates branch on: target technologies, a job change, an empty list when none', async () => {
      const tech = (await t.post('/v1/companies/technographics', { company_domain: 'acme-robotics.com' })).json<{
        data: { name: string }[];
        technologies: { name: string }[];
      }>();
      assert.deepEqual(tech.data, tech.technologies, 'data is the same list as technologies');
      // The tools tech-stack-selling targets are there (its 📊 Analyze Tech Stack reads the targets from this answer, not
      // from its item, so as published it matches none: the fixture says so).
      const names = tech.data.map((d) => d.name.toLowerCase());
      assert.ok(
        ['salesforce', 'hubspot'].every((target) => names.some((n) => n.includes(target))),
        names.join(', '),
      );
      const change = (
        await t.post('/v1/people/job-change-detector', { profile_url: 'john-smith-42', company_domain: 'globex.example.com' })
      ).json<{
        job_change_detected: boolean;
        current_position: { title: string };
      }>();
      assert.equal(change.job_change_detected, true);
      assert.equal(change.current_position.title, 'VP of Sales');
      const none = (await t.post('/v1/companies/technographics', { company_domain: 'borealisautomation.com' })).json<{ data: unknown[] }>();
      assert.deepEqual(none.data, [], 'an empty list when none is found: technographics-analysis takes its "no data" branch');
    });

    it('the fixture holds all 16 templates and every LeadMagic node of each', () => {
      assert.equal(FIXTURE.templates.length, 16);
      for (const template of FIXTURE.templates) assert.ok(template.calls.length > 0, template.file);
    });
  });
}
