#!/usr/bin/env node
// Checks test/fixtures/real/clients/leadmagic-n8n/templates.json against a git copy of
// LeadMagic/leadmagic-n8n: every LeadMagic node of every template is recorded, and each recorded
// request is the one the node builds from the node's parameters (LeadMagic.node.ts: path, which
// fields it sends, its defaults, the literal values). Values the template writes as expressions
// are resolved by hand in the fixture; they are only checked to be present.
//   node scripts/check-n8n-templates.mjs <path of the leadmagic-n8n git directory>
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const repo = process.argv[2];
if (!repo) {
  console.error('usage: node scripts/check-n8n-templates.mjs <leadmagic-n8n git directory>');
  process.exit(2);
}
const fixture = JSON.parse(readFileSync(new URL('../test/fixtures/real/clients/leadmagic-n8n/templates.json', import.meta.url), 'utf8'));
const show = (path) => execFileSync('git', ['-C', repo, 'show', `${fixture.commit}:${path}`], { encoding: 'utf8' });

/** The node's defaults for the fields it reads (descriptions/*.ts). */
const DEFAULTS = { searchMethod: 'domain', companyIdentifier: 'domain', experience_level: 'entry', page: 1, per_page: 20 };
const JOB_FIELDS = ['company_name', 'company_website', 'job_title', 'location', 'experience_level', 'job_description'];
const JOB_FIELDS_AFTER = ['country_id', 'region_id', 'industry_id', 'company_type_id', 'job_type_id', 'page', 'per_page'];

/** resource.operation → the path and the body fields the node sends (always, or only when non-empty). */
function request(p) {
  const get = (name) => p[name] ?? DEFAULTS[name] ?? '';
  const byMethod = (method, fields) => fields[get(method)] ?? [];
  switch (`${p.resource}.${p.operation}`) {
    case 'company.searchCompany':
      return { path: '/v1/companies/search', always: ['company_domain'], ifSet: ['company_name', 'linkedin_url'] };
    case 'company.getCompanyFunding':
      return { path: '/v1/companies/funding', always: ['company_domain'], ifSet: ['company_name', 'linkedin_url'] };
    case 'company.getTechnographics':
      return { path: '/v1/companies/technographics', always: ['company_domain'] };
    case 'company.searchCompetitors':
      return {
        path: '/v1/companies/competitors-search',
        always: byMethod('searchMethod', { domain: ['company_domain'], name: ['company_name'], linkedin: ['profile_url'] }),
      };
    case 'profile.searchProfile':
      return { path: '/v1/people/profile', always: ['profile_url'] };
    case 'profile.emailToProfile':
      return { path: '/v1/people/email-to-profile', always: ['work_email'] };
    case 'profile.findMobile':
      return {
        path: '/v1/people/mobile',
        always: byMethod('searchMethod', { profile: ['profile_url'], workEmail: ['work_email'], personalEmail: ['personal_email'] }),
      };
    case 'people.findRole':
      return {
        path: '/v1/people/role-finder',
        always: [
          'job_title',
          ...byMethod('searchMethod', { name: ['company_name'], domain: ['company_domain'], profile: ['company_profile_url'] }),
        ],
      };
    case 'people.detectJobChange':
      return {
        path: '/v1/people/job-change-detector',
        always: ['profile_url', ...byMethod('companyIdentifier', { domain: ['company_domain'], name: ['company_name'] })],
      };
    case 'email.validateEmail':
      return { path: '/v1/emails/validate', always: ['email'], ifSet: ['first_name', 'last_name'] };
    case 'email.findEmail':
      return { path: '/v1/emails/finder', always: ['first_name', 'last_name'], ifSet: ['domain', 'company_name'] };
    case 'email.findPersonalEmail':
      return { path: '/v1/emails/personal', always: ['profile_url'] };
    case 'email.socialToWorkEmail':
      return { path: '/v1/emails/social-to-work', always: ['profile_url'] };
    case 'job.findJobs':
      return { path: '/v1/jobs/finder', ifSet: [...JOB_FIELDS, ...JOB_FIELDS_AFTER] };
    case 'advertisement.searchGoogleAds':
      return { path: '/v1/ads/google', always: ['company_domain'] };
    case 'advertisement.searchMetaAds':
      return { path: '/v1/ads/meta', always: ['company_domain'] };
    default:
      return undefined;
  }
}

const problems = [];
for (const template of fixture.templates) {
  const workflow = JSON.parse(show(template.file));
  const nodes = new Map(workflow.nodes.map((n) => [n.name, n]));
  const leadMagicNodes = workflow.nodes.filter((n) => n.type === 'n8n-nodes-leadmagic.leadMagic').map((n) => n.name);
  for (const name of leadMagicNodes)
    if (!template.calls.some((c) => c.node === name)) problems.push(`${template.file}: ${name} is not recorded`);
  for (const call of template.calls) {
    const label = `${template.file} › ${call.node}`;
    const node = nodes.get(call.node);
    if (!node) {
      problems.push(`${label}: no such node`);
      continue;
    }
    const p = node.parameters;
    const expected = request(p);
    if (!expected) {
      problems.push(`${label}: ${p.resource}.${p.operation} is not a known operation`);
      continue;
    }
    if (call.path !== expected.path) problems.push(`${label}: path ${call.path}, the node sends ${expected.path}`);
    const value = (name) => p[name] ?? DEFAULTS[name] ?? '';
    const sent = [...(expected.always ?? []), ...(expected.ifSet ?? []).filter((name) => value(name) !== '' && value(name) !== 0)];
    const recorded = Object.keys(call.body);
    if ([...sent].sort().join() !== [...recorded].sort().join())
      problems.push(`${label}: body fields ${recorded.join(', ')}, the node sends ${sent.join(', ')}`);
    for (const name of sent) {
      const v = value(name);
      // A literal parameter (or a default) is sent as written; an expression ("={{ … }}") is resolved in the fixture.
      if (!(typeof v === 'string' && v.startsWith('=')) && call.body[name] !== v)
        problems.push(`${label}: ${name} is ${JSON.stringify(call.body[name])}, the node sends ${JSON.stringify(v)}`);
    }
  }
}
console.log(`${fixture.templates.length} templates, ${fixture.templates.reduce((n, t) => n + t.calls.length, 0)} calls checked`);
for (const problem of problems) console.log(problem);
process.exit(problems.length ? 1 : 0);
