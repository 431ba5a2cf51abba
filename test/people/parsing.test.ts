import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { foldNamePart, parsePersonName, type PersonName } from '../../src/people/names.ts';
import { normalizeProfileId, profileUrlFor } from '../../src/people/profile.ts';
import { declaredType, mobileNumberOf, parsePhone } from '../../src/people/phones.ts';

describe('person names', () => {
  const cases: [string, Partial<PersonName>][] = [
    ['Maria de la Cruz', { first: 'Maria', last: 'de la Cruz', prefix: null, suffix: null }],
    ['Dr. Juan Carlos de la Vega Jr.', { prefix: 'Dr.', first: 'Juan', middle: 'Carlos', last: 'de la Vega', suffix: 'Jr.' }],
    ['Ludwig van Beethoven III', { first: 'Ludwig', last: 'van Beethoven', suffix: 'III' }],
    ['Smith, Jane', { first: 'Jane', last: 'Smith' }],
    ["O'Brien, Mary-Kate", { first: 'Mary-Kate', last: "O'Brien" }],
    ['Robert "Bob" Jones PhD', { first: 'Robert', last: 'Jones', nickname: 'Bob', suffix: 'PhD' }],
    ['Anne-Marie Le Pen', { first: 'Anne-Marie', last: 'Le Pen' }],
    ['Cher', { first: 'Cher', last: null }],
  ];
  for (const [full, expected] of cases) {
    it(`parses "${full}"`, () => {
      const name = parsePersonName({ full })!;
      assert.equal(name.full, full);
      for (const [k, v] of Object.entries(expected)) assert.equal(name[k as keyof PersonName], v, `${k} of ${full}`);
    });
  }
  it('prefers explicit first and last names and builds the display name from them', () => {
    assert.deepEqual(parsePersonName({ first: ' Jane ', last: 'van der Berg' }), {
      full: 'Jane van der Berg',
      prefix: null,
      first: 'Jane',
      middle: null,
      last: 'van der Berg',
      suffix: null,
      nickname: null,
    });
    assert.equal(parsePersonName({ full: '  ', first: null }), null);
  });
  it('folds name parts to the ASCII used in addresses', () => {
    assert.equal(foldNamePart('José'), 'jose');
    assert.equal(foldNamePart("O'Brien"), 'obrien');
    assert.equal(foldNamePart('Müller-Lüdenscheidt'), 'mullerludenscheidt');
    assert.equal(foldNamePart('Łukasz'), 'lukasz');
  });
});

describe('profile identifiers', () => {
  const same = [
    'https://www.linkedin.com/in/jane-doe-12/',
    'http://uk.linkedin.com/in/Jane-Doe-12?trk=public_profile',
    'linkedin.com/in/jane-doe-12',
    'www.linkedin.com/in/jane-doe-12/details/experience/',
    '/in/jane-doe-12',
    'in/jane-doe-12',
    'jane-doe-12',
    ' Jane-Doe-12 ',
    'https://www.linkedin.com/in/jane-doe-12#about',
  ];
  for (const input of same) it(`reads "${input}"`, () => assert.equal(normalizeProfileId(input), 'jane-doe-12'));
  it('decodes percent-encoded identifiers', () => {
    assert.equal(normalizeProfileId('https://www.linkedin.com/in/jos%C3%A9-garc%C3%ADa'), 'josé-garcía');
  });
  it('refuses what names no profile', () => {
    for (const bad of ['', 'ab', 'https://www.linkedin.com/company/acme', 'https://example.com/', 'jane doe', 'a/b/c', null, undefined]) {
      assert.equal(normalizeProfileId(bad as string), null, String(bad));
    }
  });
  it('builds the full URL from a configurable base', () => {
    assert.equal(profileUrlFor('jane-doe-12'), 'https://www.linkedin.com/in/jane-doe-12');
    assert.equal(profileUrlFor('jane-doe-12', 'https://prof.example/in'), 'https://prof.example/in/jane-doe-12');
  });
});

describe('phone numbers', () => {
  it('parses to E.164 with the type of the number range', () => {
    assert.deepEqual(parsePhone('+44 7400 123456'), { e164: '+447400123456', type: 'mobile', country: 'GB' });
    assert.deepEqual(parsePhone('06 12 34 56 78', 'FR'), { e164: '+33612345678', type: 'mobile', country: 'FR' });
    assert.deepEqual(parsePhone('+34 912 345 678'), { e164: '+34912345678', type: 'fixed', country: 'ES' });
    assert.deepEqual(parsePhone('+1 800 555 0100'), { e164: '+18005550100', type: 'other', country: 'US' });
  });
  it('uses the default country for national numbers', () => {
    assert.equal(parsePhone('(415) 555-2671', 'US')?.e164, '+14155552671');
    assert.equal(parsePhone('(415) 555-2671'), null);
  });
  it('lets the source settle only what the range leaves open', () => {
    assert.equal(parsePhone('(415) 555-2671', 'US')?.type, 'possibly_mobile');
    assert.equal(parsePhone('(415) 555-2671', 'US', 'cell')?.type, 'mobile');
    assert.equal(parsePhone('(415) 555-2671', 'US', 'landline')?.type, 'fixed');
    // A fixed-line range stays fixed whatever the source calls it.
    assert.equal(parsePhone('+34 912 345 678', null, 'mobile')?.type, 'fixed');
  });
  it('refuses invalid numbers', () => {
    for (const bad of ['12', 'abc', '+44 7700 900123', '']) assert.equal(parsePhone(bad, 'US'), null, bad);
  });
  it('reads source wordings and writes the wire number', () => {
    assert.equal(declaredType('Mobile Phone'), 'mobile');
    assert.equal(declaredType('office'), 'fixed');
    assert.equal(declaredType('pager'), null);
    assert.equal(mobileNumberOf('+447400123456'), 447400123456);
  });
});
