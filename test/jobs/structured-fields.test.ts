// Structured fields before text: a source's own country and pay settings win over what the text suggests.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeListing } from '../../src/jobs/listing.ts';
import { resolveLocation } from '../../src/jobs/geo.ts';
import { JOB_CONNECTORS } from '../../src/ingest/jobs/index.ts';

const ctx = { source: 'lever', board: 'acme', now: Date.UTC(2026, 10, 1) };
const raw = (location: string, countryCode: string | null) => ({
  sourceId: '1',
  title: 'Account Executive',
  location,
  employmentTypes: [],
  publishedAt: null,
  descriptionHtml: '',
  applyUrl: 'https://jobs.example/1',
  countryCode,
});

describe('structured fields before text', () => {
  it("reads a bare place name within the source's country", () => {
    const bali = normalizeListing(raw('Bali', 'ID'), ctx);
    assert.deepEqual(bali.countryCodes, ['ID']);
    assert.ok(
      bali.cityIds.every((id) => id !== resolveLocation('Bari, Italy').cities[0]?.geonameid),
      'not Bari, Italy',
    );
  });

  it('still reads what the text says explicitly, for every place of a multi-location posting', () => {
    const listing = normalizeListing(raw('New York, NY; Toronto, ON', 'US'), ctx);
    assert.deepEqual(listing.countryCodes, ['US', 'CA']);
  });

  it('takes the country from the field when the text names no place', () => {
    assert.deepEqual(normalizeListing(raw('Remote', 'DE'), ctx).countryCodes, ['DE']);
  });

  it("Ashby: the address's country is read, and pay the employer chose not to publish is not stored", () => {
    const job = {
      id: 'a1',
      title: 'Engineer',
      location: 'Bali',
      jobUrl: 'https://jobs.ashbyhq.com/acme/a1',
      address: { postalAddress: { addressCountry: 'Indonesia' } },
      shouldDisplayCompensationOnJobPostings: false,
      compensation: { summaryComponents: [{ compensationType: 'Salary', currencyCode: 'USD', minValue: 90000, maxValue: 120000 }] },
    };
    const [listing] = JOB_CONNECTORS.ashby.parsePayload(JSON.stringify({ jobs: [job] }), { board: 'acme' });
    assert.equal(listing.countryCode, 'ID');
    assert.equal(listing.salary, null);
    const shown = JOB_CONNECTORS.ashby.parsePayload(JSON.stringify({ jobs: [{ ...job, shouldDisplayCompensationOnJobPostings: true }] }), {
      board: 'acme',
    });
    assert.deepEqual(shown[0].salary, { min: 90000, max: 120000, currency: 'USD' });
  });
});

describe('city-states', () => {
  it('reads Singapore, Hong Kong and Monaco as city and country', () => {
    for (const [text, code] of [
      ['Singapore', 'SG'],
      ['Hong Kong', 'HK'],
      ['Monaco', 'MC'],
    ]) {
      const place = resolveLocation(text);
      assert.deepEqual(place.countries, [code]);
      assert.deepEqual(
        place.cities.map((c) => c.country),
        [code],
        `${text} is a city too`,
      );
    }
  });
});
