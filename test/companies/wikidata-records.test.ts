import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { readSparqlResults } from '../../src/ingest/companies/sparql-results.ts';
import { companiesOf, detailQuery, geoOfWkt, listedQids, listingQuery } from '../../src/ingest/companies/wikidata.ts';
import { prepareCompany, type CompanyInput } from '../../src/companies/input.ts';

const REAL = fileURLToPath(new URL('../fixtures/real/wikidata/', import.meta.url));
const real = (file: string) => readSparqlResults(readFileSync(join(REAL, file), 'utf8'), file);
const inputOf = (records: ReturnType<typeof companiesOf>, i = 0): CompanyInput => {
  const record = records[i];
  assert.ok('input' in record, JSON.stringify(record));
  return record.input;
};

describe('Wikidata Query Service answers', () => {
  it('every recorded answer reads as SPARQL results, with its terms typed', () => {
    for (const file of readdirSync(REAL).filter((f) => f.endsWith('.json'))) {
      const results = real(file);
      assert.ok(results.vars.includes('company'), file);
      assert.ok(results.rows.length > 0, file);
      for (const row of results.rows) {
        assert.equal(row.company.type, 'uri');
        assert.match(row.company.value, /^http:\/\/www\.wikidata\.org\/entity\/Q\d+$/);
        assert.equal(row.companyLabel.lang, 'en');
      }
    }
  });

  it('a recorded batch answer becomes one company per item, with its HQ, country and parent', () => {
    const results = real('eurocheck-batch.json');
    const records = companiesOf(results, ['Q215293', 'Q3884', 'Q312'], 'batch');
    const volvo = inputOf(records, 0);
    assert.equal(volvo.name, 'Volvo Cars');
    assert.deepEqual(volvo.location, { locality: 'Gothenburg', country: 'Sweden', geo: null });
    assert.equal(volvo.ownership, 'subsidiary of Geely');
    assert.deepEqual(volvo.external_ids, { wikidata: 'Q215293' });
    assert.equal(inputOf(records, 1).name, 'Amazon');
    assert.equal(inputOf(records, 2).location?.locality, 'Cupertino');
    // Each record is one the company store takes.
    for (const r of records) if ('input' in r) prepareCompany(r.input);
  });

  it('an item the answer does not mention is refused with the reason, never dropped', () => {
    const records = companiesOf(real('eurocheck-google.json'), ['Q95', 'Q1'], 'page');
    assert.equal(inputOf(records, 0).ownership, 'subsidiary of Alphabet Inc.');
    assert.deepEqual(records[1], { line: 2, error: 'Q1: not in the answer (no longer a company with a website?)' });
  });

  it('refuses bodies that are not SELECT results instead of reading them as empty', () => {
    assert.throws(() => readSparqlResults('<!DOCTYPE html><title>Wikimedia Error</title>'), /not SPARQL JSON results/);
    assert.throws(() => readSparqlResults('{"error":"timeout"}'), /no head\.vars/);
    assert.throws(() => readSparqlResults('{"head":{"vars":[]},"boolean":true}'), /not SPARQL SELECT results/);
    assert.throws(() => readSparqlResults('{"head":{"vars":["x"]},"results":{"bindings":[{"x":"Q1"}]}}'), /not an RDF term/);
    const cut =
      '{\n  "head" : {\n    "vars" : [ "company" ]\n  },\n  "results" : {\n    "bindings" : [ {\n      "company" : { "type" : "uri", "value" : "http://www.wik';
    assert.throws(() => readSparqlResults(`${cut}\njava.util.concurrent.TimeoutException`), /not SPARQL JSON results/);
    const other = readSparqlResults('{"head":{"vars":["item"]},"results":{"bindings":[]}}');
    assert.throws(() => listedQids(other, 'listing'), /no \?company column/);
    const notItem = readSparqlResults(
      '{"head":{"vars":["company"]},"results":{"bindings":[{"company":{"type":"uri","value":"http://x/1"}}]}}',
    );
    assert.throws(() => listedQids(notItem, 'listing'), /row 1 names no Wikidata item/);
  });

  it('reads typed values: dates, WKT points (longitude first), labels that are only a QID', () => {
    assert.equal(geoOfWkt('Point(-122.0419 37.3175)'), '37.3175,-122.0419');
    assert.equal(geoOfWkt('<http://www.wikidata.org/entity/Q405> Point(23.47 0.67)'), null, 'a point on the Moon');
    assert.equal(geoOfWkt('Point(200 10)'), null);
    const term = (value: string, datatype?: string) => ({ type: 'literal', value, ...(datatype ? { datatype } : {}) });
    const row = (extra: Record<string, unknown>) => ({
      company: { type: 'uri', value: 'http://www.wikidata.org/entity/Q7' },
      companyLabel: term('Kongō Gumi'),
      ...extra,
    });
    const body = JSON.stringify({
      head: { vars: ['company', 'companyLabel', 'inception', 'ceoLabel', 'revenue', 'revenueUnit'] },
      results: {
        bindings: [
          row({ inception: term('0578-01-01T00:00:00Z', 'http://www.w3.org/2001/XMLSchema#dateTime') }),
          row({ ceoLabel: term('Q123456') }),
          // An "unknown value" CEO: the service's placeholder IRI, whose label is an id.
          row({ ceo: { type: 'uri', value: 'http://www.wikidata.org/.well-known/genid/0a1b2c' }, ceoLabel: term('t1234567') }),
          row({
            revenue: term('7500000000', 'http://www.w3.org/2001/XMLSchema#decimal'),
            revenueUnit: { type: 'uri', value: 'http://www.wikidata.org/entity/Q8146' },
          }),
        ],
      },
    });
    const employees = (n: string, at?: string) =>
      row({
        employees: term(n, 'http://www.w3.org/2001/XMLSchema#decimal'),
        ...(at ? { employeesAt: term(at, 'http://www.w3.org/2001/XMLSchema#dateTime') } : {}),
      });
    const parsed = JSON.parse(body) as { results: { bindings: unknown[] } };
    parsed.results.bindings.push(employees('100', '2020-01-01T00:00:00Z'), employees('90', '2023-01-01T00:00:00Z'), employees('500'));
    const input = inputOf(companiesOf(readSparqlResults(JSON.stringify(parsed)), ['Q7'], 'page'));
    assert.equal(input.employee_count, 90, 'the most recent dated count');
    assert.equal(input.founded_year, null, 'a founding year before 1000 is not stored (the company is)');
    assert.equal(input.leadership, null, 'a person without a label is no leader');
    assert.equal(input.revenue, null, 'revenue in yen is not stored as dollars');
    prepareCompany(input);
  });

  it('queries stay small: a listing is one class, a detail page names its items', () => {
    assert.equal(listingQuery('Q4830453'), 'SELECT DISTINCT ?company WHERE { ?company wdt:P31 wd:Q4830453 ; wdt:P856 ?website . }');
    const query = detailQuery(Array.from({ length: 100 }, (_, i) => `Q${10_000_000 + i}`));
    assert.match(query, /VALUES \?company \{ wd:Q10000000 /);
    assert.ok(encodeURIComponent(query).length < 8000, `a GET address of ${encodeURIComponent(query).length} characters`);
  });
});

describe('Wikidata relations', () => {
  it('the detail query asks for subsidiaries; parent, subsidiaries and acquisitions become relations, with their items', () => {
    assert.match(detailQuery(['Q95']), /wdt:P355 \?subsidiary/);
    const ours = fileURLToPath(new URL('../fixtures/wikidata/google-relations.json', import.meta.url));
    const rows = readSparqlResults(readFileSync(ours, 'utf8'), 'google-relations.json');
    const recorded = real('eurocheck-google.json');
    // The recorded row names the parent by its label only; our row names its item: the item wins.
    const merged = { vars: [...new Set([...recorded.vars, ...rows.vars])], rows: [...recorded.rows, ...rows.rows] };
    const google = inputOf(companiesOf(merged, ['Q95'], 'google'));
    assert.deepEqual(google.relations, [
      { relation: 'parent', company_name: 'Alphabet Inc.', wikidata_id: 'Q20800404' },
      { relation: 'subsidiary', company_name: 'YouTube', wikidata_id: 'Q866' },
      { relation: 'acquired', company_name: 'YouTube', wikidata_id: 'Q866', since: '2006-11-13' },
    ]);
    assert.equal(prepareCompany(google).relations.length, 3);
  });

  it('a relation of another kind, or without a name, or with an item that is not one, refuses the record', () => {
    const base = { name: 'Example Co', domain: 'example.com' };
    assert.throws(
      () => prepareCompany({ ...base, relations: [{ relation: 'sibling' as 'parent', company_name: 'X' }] }),
      /relation must be one of/,
    );
    assert.throws(() => prepareCompany({ ...base, relations: [{ relation: 'parent', company_name: ' ' }] }), /company_name is required/);
    assert.throws(
      () => prepareCompany({ ...base, relations: [{ relation: 'parent', company_name: 'X', wikidata_id: 'P749' }] }),
      /Wikidata item id/,
    );
  });
});
