// The one CSV writer of every file we hand out: quoting, JSON cells, and OWASP's rule against cells a
// spreadsheet would run as formulas (a leading '), which leaves plain numbers alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { csvLine, csvRecord, neutralised } from '../../src/csv/write.ts';

describe('CSV writer', () => {
  it('cells a spreadsheet would run as a formula get a leading quote', () => {
    for (const cell of ['=1+1', '+cmd|calc', '-2+3', '@SUM(A1)', '\tTAB', '\rCR', '=HYPERLINK("http://x","y")', '-', '+', '@'])
      assert.equal(neutralised(cell), `'${cell}`, JSON.stringify(cell));
  });

  it('plain numbers and ordinary text are left as they are', () => {
    for (const cell of ['-5', '+44', '-0.5', '+1e5', '3.25', '-.5', '12', 'jane@acme.test', 'a=b', 'Jane', '', ' x'])
      assert.equal(neutralised(cell), cell, JSON.stringify(cell));
  });

  it('a line quotes what needs it, after the formula rule', () => {
    assert.equal(csvLine(['=1,2', 'a"b', -5, null, undefined, { a: 1 }, ['x']]), `"'=1,2","a""b",-5,,,"{""a"":1}","[""x""]"\n`);
    assert.equal(csvLine(['\rx']), `"'\rx"\n`);
    assert.equal(csvLine(['@x', ' padded ']), `'@x," padded "\n`);
  });

  it('a record read back by ourselves keeps its cells exactly', () => {
    assert.equal(csvRecord(['=1', '-x', 'a,b']), `=1,-x,"a,b"\n`);
  });
});
