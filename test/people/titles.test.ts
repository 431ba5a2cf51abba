import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeTitle, storedRoles, titlesMatch } from '../../src/people/titles.ts';

// [what the caller asks for, what a person's title says]
const MUST_MATCH: [string, string][] = [
  ['CEO', 'Chief Executive Officer'],
  ['Chief Executive Officer', 'CEO'],
  ['CEO', 'Co-Founder & CEO'],
  ['CEO', 'President and CEO'],
  ['CEO', 'CEO @ Acme'],
  ['CEO', 'Interim CEO'],
  ['ceo', 'C.E.O.'],
  ['CTO', 'Chief Technology Officer'],
  ['CTO', 'Chief Technical Officer'],
  ['CFO', 'Chief Financial Officer'],
  ['COO', 'Chief Operating Officer'],
  ['CMO', 'Chief Marketing Officer'],
  ['CHRO', 'Chief People Officer'],
  ['CISO', 'Chief Information Security Officer'],
  ['VP Sales', 'Vice President of Sales'],
  ['VP Sales', 'SVP, Sales'],
  ['VP Sales', 'Executive Vice President, Sales & Marketing'],
  ['VP Marketing', 'VP Sales & Marketing'],
  ['Vice President Engineering', 'VP, Engineering'],
  ['Head of Sales', 'Sales Director'],
  ['Head of Sales', 'Director of Sales'],
  ['Head of Sales', 'Director, Sales'],
  ['Sales Director', 'Head of Sales (EMEA)'],
  ['Sales Director', 'Global Head of Sales'],
  ['Head of Marketing', 'Sales & Marketing Director'],
  ['Head of HR', 'Human Resources Director'],
  ['Head of People', 'Director of Human Resources'],
  ['Head of R&D', 'Director of Research and Development'],
  ['Head of Engineering', 'Engineering Director'],
  ['Engineering Manager', 'Eng Mgr'],
  ['Engineering Manager', 'Manager, Engineering'],
  ['Sales Manager', 'Sr. Sales Manager'],
  ['Software Engineer', 'Senior Software Engineer'],
  ['Software Engineer', 'Software Developer'],
  ['Software Engineer', 'SWE II'],
  ['Account Executive', 'Senior Account Executive'],
  ['AE', 'Account Executive'],
  ['SDR', 'Sales Development Representative'],
  ['Founder', 'Co-Founder'],
  ['Founder', 'Co-founder & CTO'],
  ['Managing Director', 'MD'],
  ['General Manager', 'GM'],
  ['Chairman', 'Chair of the Board'],
  ['President', 'President & CEO'],
  ['Marketing', 'VP Marketing'],
  ['Marketing', 'Marketing Manager'],
  ['Business Development Manager', 'Biz Dev Manager'],
  ['Head of Customer Success', 'Director, Customer Success'],
  ['Director of IT', 'Head of Information Technology'],
  ['Head of Go-To-Market', 'Go-to-Market Director'],
  ['Head of Sales', 'Head of Sales for North America'],
];

const MUST_NOT_MATCH: [string, string][] = [
  ['CEO', 'CFO'],
  ['CEO', 'Executive Assistant to the CEO'],
  ['CEO', 'Deputy CEO'],
  ['CEO', 'Chief of Staff'],
  ['CEO', 'Office of the CEO'],
  ['CTO', 'Chief Executive Officer'],
  ['President', 'Vice President'],
  ['President', 'VP Sales'],
  ['VP Sales', 'VP Marketing'],
  ['VP Sales', 'Sales Director'],
  ['VP Sales', 'Assistant Vice President, Sales'],
  ['Head of Sales', 'Sales Manager'],
  ['Head of Sales', 'Sales Representative'],
  ['Head of Sales', 'Head of Marketing'],
  ['Sales Director', 'Assistant Director of Sales'],
  ['Sales Director', 'Sales Operations Director'],
  ['Engineering Manager', 'Software Engineer'],
  ['Software Engineer', 'Engineering Manager'],
  ['Software Engineer', 'Hardware Engineer'],
  ['Director', 'Board Member'],
  ['Account Executive', 'Account Manager'],
  ['Founder', 'CEO'],
  ['Marketing', 'Sales Manager'],
  ['Managing Director', 'Director'],
  ['CFO', 'Finance Manager'],
];

describe('title matching', () => {
  for (const [wanted, held] of MUST_MATCH) {
    it(`"${wanted}" finds "${held}"`, () => assert.equal(titlesMatch(wanted, held), true, JSON.stringify(storedRoles(held).roles)));
  }
  for (const [wanted, held] of MUST_NOT_MATCH) {
    it(`"${wanted}" does not find "${held}"`, () =>
      assert.equal(titlesMatch(wanted, held), false, JSON.stringify(storedRoles(held).roles)));
  }
});

describe('title analysis', () => {
  it('gives one key per role of a combined title', () => {
    assert.deepEqual(
      analyzeTitle('Co-Founder, President & CEO').roles.map((r) => r.key),
      ['founder:', 'president:', 'chief:executive'],
    );
  });
  it('ranks levels: a function-only query prefers the most senior holder', () => {
    const [vp] = storedRoles('VP Marketing').roles;
    const [manager] = storedRoles('Marketing Manager').roles;
    assert.ok(vp.rank > manager.rank);
    assert.equal(analyzeTitle('Marketing').roles[0].level, 'any');
    assert.equal(storedRoles('Marketing').roles[0].key, 'ic:marketing');
  });
  it('keeps seniority modifiers out of the key but records them', () => {
    assert.equal(analyzeTitle('Senior Software Engineer').modifier, 1);
    assert.equal(analyzeTitle('Junior Software Engineer').modifier, -1);
    assert.equal(analyzeTitle('Senior Software Engineer').roles[0].key, analyzeTitle('Software Engineer').roles[0].key);
  });
  it('has no role for an empty title', () => {
    assert.deepEqual(analyzeTitle('').roles, []);
    assert.deepEqual(analyzeTitle('  - ').roles, []);
  });
});
