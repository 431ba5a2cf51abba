// Only a number in a mobile range is ever served (and charged) as a mobile, whatever it was stored as.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bestMobile } from '../../src/people/mobile-finder.ts';
import { isMobileRange, parsePhone } from '../../src/people/phones.ts';
import type { PersonPhoneRow } from '../../src/people/tables.ts';

const row = (id: number, e164: string, type: string, seen_at = 1): PersonPhoneRow => ({
  id,
  person_id: 1,
  e164,
  type,
  country: null,
  source: 'test',
  seen_at,
});

describe('mobile classification', () => {
  it('knows mobile ranges from fixed lines by the numbering plan', () => {
    assert.equal(isMobileRange('+447911123456'), true, 'UK 07911 is mobile');
    assert.equal(isMobileRange('+442079460958'), false, 'London 020 is a fixed line');
    assert.equal(isMobileRange('+4930901820'), false, 'a Berlin switchboard');
    assert.equal(isMobileRange('+14155552671'), true, 'US ranges are shared by fixed and mobile lines');
    assert.equal(isMobileRange('not a number'), false);
  });

  it('never serves a row stored as a mobile whose number is a fixed line', () => {
    const switchboard = row(1, '+4930901820', 'mobile', 5);
    const mobile = row(2, '+447911123456', 'mobile', 1);
    assert.equal(bestMobile([switchboard]), null);
    assert.equal(bestMobile([switchboard, mobile])?.id, 2);
  });

  it('does not take a source\'s "mobile" for a number whose range says nothing', () => {
    const parsed = parsePhone('+4930901820', null, 'mobile');
    assert.notEqual(parsed?.type, 'mobile');
    assert.notEqual(parsed?.type, 'possibly_mobile');
  });
});
