import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { parseColumnMap, readPeopleCsv, rowToPerson } from '../../src/ingest/people/csv.ts';

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe('people file formats', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'leadbase-people-formats-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('JSONL: skips blank lines, tolerates a byte order mark, numbers lines as in the file', async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '\uFEFF{"full_name":"A B"}\n\n[1,2]\n{"full_name":"C D"}\n');
    const records = await collect(readPeopleJsonl(file).records);
    assert.deepEqual(records, [
      { line: 1, input: { full_name: 'A B' } },
      { line: 3, error: 'a line must hold one JSON object' },
      { line: 4, input: { full_name: 'C D' } },
    ]);
  });

  it('CSV: headers that are field names need no map; other columns are ignored', async () => {
    const file = join(dir, 'a.csv');
    writeFileSync(
      file,
      'First Name,Last-Name,Title,Company Domain,Notes,Personal Email\n"Ana","Silva","CTO","x.example","n/a",ana@gmail.com\n',
    );
    const [record] = await collect(readPeopleCsv(file).records);
    assert.equal(record.line, 2);
    assert.deepEqual((record as { input: unknown }).input, {
      id: null,
      full_name: null,
      first_name: 'Ana',
      last_name: 'Silva',
      profile_url: null,
      positions: [{ title: 'CTO', company_name: null, company_domain: 'x.example', start: null, end: null, current: null }],
      emails: [{ email: 'ana@gmail.com', type: 'personal' }],
      phones: [],
    });
  });

  it('CSV: a file whose columns name no field is refused', async () => {
    const file = join(dir, 'b.csv');
    writeFileSync(file, 'foo,bar\n1,2\n');
    await assert.rejects(collect(readPeopleCsv(file).records), /no column .* names a field/);
  });

  it('column maps: case-insensitive columns, unknown fields refused', () => {
    assert.deepEqual(
      [...parseColumnMap('Full Name=full_name, E-Mail = work_email')],
      [
        ['full name', 'full_name'],
        ['e-mail', 'work_email'],
      ],
    );
    assert.throws(() => parseColumnMap('Name=nick'), /"nick" is not a field/);
    assert.throws(() => parseColumnMap('Name'), /is not column=field/);
  });

  it('a row becomes a person with one position, typed emails and phones', () => {
    const person = rowToPerson({
      full_name: 'Jo Ko',
      title: 'CEO',
      company_name: 'K',
      current: 'no',
      work_email: 'jo@k.example',
      work_email_status: 'valid',
      mobile_phone: '0612345678',
      country: 'FR',
    });
    assert.equal(person.positions![0].current, false);
    assert.deepEqual(person.emails, [{ email: 'jo@k.example', type: 'work', status: 'valid' }]);
    assert.deepEqual(person.phones, [{ number: '0612345678', type: 'mobile', country: 'FR' }]);
  });
});
