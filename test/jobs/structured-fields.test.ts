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

describe('structured pay', () => {
  it("Personio: the feed's salaryInformation, flat or one element deeper", () => {
    const xml = (info: string) =>
      `<?xml version="1.0"?><workzag-jobs><position><id>1</id><office>Berlin</office><name>Backend Engineer</name>${info}<jobDescriptions><jobDescription><name>Pay</name><value>Up to 90.000 EUR</value></jobDescription></jobDescriptions></position></workzag-jobs>`;
    const read = (info: string) => JOB_CONNECTORS.personio.parsePayload(xml(info), { board: 'acme' })[0].salary;
    assert.deepEqual(
      read(
        '<salaryInformation><min>30000.00</min><max>40000.00</max><currencySymbol>€</currencySymbol><currencyCode>EUR</currencyCode><type>yearly</type></salaryInformation>',
      ),
      { min: 30000, max: 40000, currency: 'EUR' },
    );
    assert.deepEqual(
      read('<salaryInformation><salary><min>50000</min><max>60000</max><currencyCode>EUR</currencyCode></salary></salaryInformation>'),
      {
        min: 50000,
        max: 60000,
        currency: 'EUR',
      },
    );
    assert.equal(read(''), null, 'no structured pay: the text is read later, at normalization');
  });

  it('JSON-LD: baseSalary as a number, as a MonetaryAmount with a number, and with a QuantitativeValue', () => {
    const page = (extra: object) =>
      `<script type="application/ld+json">${JSON.stringify({ '@type': 'JobPosting', title: 'Nurse', hiringOrganization: { name: 'Clinic' }, ...extra })}</script>`;
    const read = (extra: object) => JOB_CONNECTORS.jsonld.parsePayload(page(extra), { board: 'https://clinic.example/jobs' })[0].salary;
    assert.deepEqual(read({ baseSalary: 52000, salaryCurrency: 'GBP' }), { min: 52000, max: 52000, currency: 'GBP' });
    assert.deepEqual(read({ baseSalary: { '@type': 'MonetaryAmount', currency: 'EUR', value: 48000 } }), {
      min: 48000,
      max: 48000,
      currency: 'EUR',
    });
    assert.deepEqual(
      read({
        baseSalary: { '@type': 'MonetaryAmount', currency: 'USD', value: { '@type': 'QuantitativeValue', value: 40, unitText: 'HOUR' } },
      }),
      {
        min: 40,
        max: 40,
        currency: 'USD',
      },
    );
    assert.deepEqual(
      read({
        baseSalary: {
          '@type': 'MonetaryAmount',
          currency: 'USD',
          value: { '@type': 'QuantitativeValue', minValue: 90000, maxValue: 120000 },
        },
      }),
      { min: 90000, max: 120000, currency: 'USD' },
    );
  });
});

describe('Lever', () => {
  it("reads its own level category and the employer's pay description", () => {
    const posting = {
      id: 'p1',
      text: 'Account Manager',
      hostedUrl: 'https://jobs.lever.co/acme/p1',
      categories: { location: 'Toronto, ON', commitment: 'Full-time', level: 'Entry Level' },
      descriptionPlain: 'Manage accounts.',
      salaryDescription: '<p>The pay range for this role is CA$60,000 - CA$70,000 per year.</p>',
    };
    const [raw] = JOB_CONNECTORS.lever.parsePayload(JSON.stringify([posting]), { board: 'acme' });
    const listing = normalizeListing(raw, { ...ctx, board: 'acme' });
    assert.equal(listing.experienceLevel, 'entry', 'the source level beats the role word "Manager"');
    assert.deepEqual([listing.salaryMin, listing.salaryMax, listing.salaryCurrency], [60000, 70000, 'CAD']);
  });
});
