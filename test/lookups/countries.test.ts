// One countries module: company locations and job locations read a country name the same way.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alpha2Code, allCountries, countryCodeByName } from '../../src/lookups/countries.ts';
import { lookupCountry } from '../../src/companies/geography.ts';
import { resolveLocation } from '../../src/jobs/geo.ts';

const NAMES: [string, string][] = [
  ['Deutschland', 'DE'],
  ['Korea', 'KR'],
  ['Northern Ireland', 'GB'],
  ['the Netherlands', 'NL'],
  ['United States of America', 'US'],
  ['Côte d’Ivoire', 'CI'],
  ['Türkiye', 'TR'],
  ['Russian Federation', 'RU'],
];

describe('countries', () => {
  it('lists the ISO 3166-1 countries once', () => {
    const codes = allCountries().map((c) => c.code);
    assert.equal(new Set(codes).size, codes.length);
    assert.ok(codes.length >= 249, `${codes.length} countries`);
    assert.ok(codes.every((c) => /^[A-Z]{2}$/.test(c)));
  });

  for (const [name, code] of NAMES) {
    it(`reads "${name}" as ${code} for companies and for jobs alike`, () => {
      assert.equal(countryCodeByName(name), code);
      assert.equal(lookupCountry(name)?.code, code);
      assert.deepEqual(resolveLocation(name).countries, [code]);
    });
  }

  it('takes UK for GB as a code, and refuses what is no country', () => {
    assert.equal(alpha2Code('uk'), 'GB');
    assert.equal(alpha2Code('DE'), 'DE');
    assert.equal(alpha2Code('XX'), null);
    assert.equal(alpha2Code('DEU'), null);
  });
});
