// The fact-merge rule on its own: which source's value a company's fact takes, with no database.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FACT_COLUMNS, mergeFacts, parseSources, sourceRank, type FieldSources } from '../../src/companies/fact-merge.ts';
import type { CompanyRow } from '../../src/companies/tables.ts';
import type { CompanyFacts } from '../../src/companies/input.ts';

function storedRow(facts: Partial<CompanyRow>, fieldSources: object): CompanyRow {
  const empty = Object.fromEntries(FACT_COLUMNS.map((c) => [c, null]));
  return { ...empty, id: 7, created_at: 1, updated_at: 1, ...facts, field_sources: JSON.stringify(fieldSources) } as unknown as CompanyRow;
}

function merge(row: CompanyRow, facts: CompanyFacts, source: string) {
  const sources = parseSources(row);
  const changes: Record<string, unknown> = {};
  mergeFacts(row, sources, changes, facts, source, sourceRank(source));
  return { changes, sources };
}

describe('fact merge', () => {
  it('ranks sources: our JSONL over PDL and Form D, those over any other source', () => {
    assert.equal(sourceRank('jsonl'), 3);
    assert.equal(sourceRank('pdl'), 2);
    assert.equal(sourceRank('sec-formd:2024Q1'), 2);
    assert.equal(sourceRank('greenhouse'), 1);
  });

  it('fills a missing fact from any source and gives that source the fact', () => {
    const row = storedRow({ name: 'Acme', normalized_name: 'acme' }, { pdl: { seen_at: 1, fields: ['name'] } });
    const { changes, sources } = merge(row, { employee_count: 40 }, 'greenhouse');
    assert.deepEqual(changes, { employee_count: 40 });
    assert.equal(row.employee_count, 40);
    assert.deepEqual(sources.greenhouse.fields, ['employee_count']);
  });

  it('never lets a lower-ranked source replace a fact a higher-ranked one set', () => {
    const row = storedRow(
      { name: 'Acme', normalized_name: 'acme', founded_year: 1999 },
      { jsonl: { seen_at: 1, fields: ['name', 'founded_year'] } },
    );
    const { changes, sources } = merge(row, { founded_year: 2001 }, 'pdl');
    assert.deepEqual(changes, {});
    assert.equal(row.founded_year, 1999);
    assert.deepEqual(sources.jsonl.fields, ['name', 'founded_year']);
  });

  it('lets an equal or higher rank replace it, and moves ownership of the fact', () => {
    const row = storedRow(
      { name: 'Acme', normalized_name: 'acme', founded_year: 1999 },
      { 'sec-formd': { seen_at: 1, fields: ['founded_year'] } },
    );
    const { changes, sources } = merge(row, { founded_year: 2001 }, 'pdl');
    assert.deepEqual(changes, { founded_year: 2001 });
    assert.deepEqual(sources['sec-formd'].fields, []);
    assert.deepEqual(sources.pdl.fields, ['founded_year']);
  });

  it('takes ownership of an equal value without reporting a change', () => {
    const row = storedRow(
      { name: 'Acme', normalized_name: 'acme', industry: 'Software' },
      { greenhouse: { seen_at: 1, fields: ['industry'] } },
    );
    const { changes, sources } = merge(row, { industry: 'Software' }, 'jsonl');
    assert.deepEqual(changes, {});
    assert.deepEqual(sources.jsonl.fields, ['industry']);
  });

  it('moves the matching key with the name, and never replaces the primary domain', () => {
    const row = storedRow({ name: 'Acme', normalized_name: 'acme', domain: 'acme.com' }, { greenhouse: { seen_at: 1, fields: ['name'] } });
    const { changes } = merge(row, { name: 'Acme Corp', normalized_name: 'acme corp', domain: 'acme.io' }, 'jsonl');
    assert.deepEqual(changes, { name: 'Acme Corp', normalized_name: 'acme corp' });
    assert.equal(row.domain, 'acme.com');
  });

  it('ignores null and undefined facts: a report that lacks a fact leaves it as it is', () => {
    const row = storedRow({ name: 'Acme', normalized_name: 'acme', phone: '+1 555' }, { pdl: { seen_at: 1, fields: ['name', 'phone'] } });
    const { changes } = merge(row, { phone: null, website: undefined }, 'jsonl');
    assert.deepEqual(changes, {});
    assert.equal(row.phone, '+1 555');
  });

  it('reads a new row\'s "*" as every fact set in it, except the ones that follow another', () => {
    const row = storedRow({ name: 'Acme', normalized_name: 'acme', country_code: 'DE' }, { pdl: { seen_at: 5, fields: '*' } });
    const sources: FieldSources = parseSources(row);
    assert.deepEqual(sources.pdl, { seen_at: 5, fields: ['name', 'country_code'] });
  });

  it('reads unreadable field_sources as no owners rather than failing the import', () => {
    const row = storedRow({ name: 'Acme', normalized_name: 'acme' }, {});
    row.field_sources = 'not json';
    assert.deepEqual(parseSources(row), {});
  });
});
