// inputMapping read in either direction without a guess, and applied to rows: the unit rules behind
// docs/bulk.md, "Input mapping".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columnsOfRows, mapRows, readInputMapping, unusedColumns } from '../../src/bulk/input-mapping.ts';
import { BulkInputError } from '../../src/bulk/errors.ts';
import { distinctHeader } from '../../src/bulk/list-files.ts';

const FIELDS = ['first_name', 'last_name', 'domain', 'company_name', 'full_name'];

describe('inputMapping', () => {
  it('column → field when every value is a field, field → column when only every key is', () => {
    assert.deepEqual(readInputMapping({ First: 'first_name', Site: 'domain' }, FIELDS, ['First', 'Site']), [
      { column: 'First', field: 'first_name' },
      { column: 'Site', field: 'domain' },
    ]);
    assert.deepEqual(readInputMapping({ first_name: 'First', domain: 'Site' }, FIELDS, ['First', 'Site']), [
      { column: 'First', field: 'first_name' },
      { column: 'Site', field: 'domain' },
    ]);
    // Keys and values all fields: read as column → field (the column "domain" fills company_name).
    assert.deepEqual(readInputMapping({ domain: 'company_name' }, FIELDS, ['domain']), [{ column: 'domain', field: 'company_name' }]);
    assert.deepEqual(readInputMapping({}, FIELDS, []), []);
  });

  it('refuses unknown fields, missing columns and a field filled twice, naming them', () => {
    const refused = (mapping: Record<string, string>, columns: string[], message: RegExp) =>
      assert.throws(
        () => readInputMapping(mapping, FIELDS, columns),
        (error: unknown) => error instanceof BulkInputError && error.field === '/inputMapping' && message.test(error.message),
      );
    refused({ First: 'given_name', Site: 'domain' }, ['First', 'Site'], /does not take: given_name/);
    refused({ First: 'first_name' }, ['first'], /columns the list does not have: First \(its columns: first\)/);
    refused({ A: 'first_name', B: 'first_name' }, ['A', 'B'], /fills first_name from more than one column/);
  });

  it('a mapped field takes its column only; other columns stay; rows that are not objects are left', () => {
    const mapping = [{ column: 'First', field: 'first_name' }];
    assert.deepEqual(mapRows([{ First: 'Jane', first_name: 'ignored', Phone: '1' }, 'x', null], mapping), [
      { Phone: '1', first_name: 'Jane' },
      'x',
      null,
    ]);
    assert.deepEqual(mapRows([{ Phone: '1' }], mapping), [{ Phone: '1' }], 'a row without the column has no such field');
    assert.deepEqual(columnsOfRows([{ a: 1 }, 'x', { b: 2, a: 3 }]), ['a', 'b']);
    assert.deepEqual(unusedColumns(['First', 'first_name', 'Phone', 'domain'], mapping, FIELDS), ['first_name', 'Phone']);
  });

  it('a repeated header name is kept by its place', () => {
    assert.deepEqual(distinctHeader(['email', ' Name ', 'email', 'email']), ['email', 'Name', 'email (column 3)', 'email (column 4)']);
  });
});
