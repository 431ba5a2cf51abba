// Levels and types: a level word in the title outranks a role word; a title's contract words add
// their type even when the source gives one; each source's level vocabulary is mapped explicitly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectExperienceLevel } from '../../src/jobs/normalize/experience.ts';
import { detectJobTypes } from '../../src/jobs/normalize/job-types.ts';

const LEVELS: [string, string | null, string][] = [
  ['Junior Sales Manager', null, 'entry'],
  ['Junior Product Manager (m/w/d)', null, 'entry'],
  ['Graduate Team Lead', null, 'entry'],
  ['Trainee Store Manager', null, 'entry'],
  ['Sales Manager', null, 'senior'],
  ['Senior Associate', null, 'senior'],
  ['Assistant Manager', null, 'senior'],
  ['Head of Sales', null, 'executive'],
  ['Software Engineer', 'Mid-Senior level', 'mid'],
  ['Software Engineer', 'Entry level', 'entry'],
  ['Software Engineer', 'Director', 'executive'],
];

describe('levels and types', () => {
  for (const [title, sourceLevel, level] of LEVELS) {
    it(`"${title}"${sourceLevel ? ` (source: ${sourceLevel})` : ''} is ${level}`, () => {
      assert.equal(detectExperienceLevel(title, '', sourceLevel), level);
    });
  }

  it("adds the title's contract, internship and temporary words to the source's type", () => {
    assert.deepEqual(detectJobTypes(['Full-time'], 'Finance Analyst (12m Fixed Term Contract)'), [1, 6]);
    assert.deepEqual(detectJobTypes(['Full-time'], 'Summer Internship: Data'), [1, 4]);
    assert.deepEqual(detectJobTypes(['Full-time'], 'Temporary Warehouse Associate'), [1, 3]);
    // A part-time word in the title does not contradict a source that says full time.
    assert.deepEqual(detectJobTypes(['Full-time'], 'Barista (part-time hours possible)'), [1]);
    assert.deepEqual(detectJobTypes([], 'Barista, part-time'), [2]);
  });
});
