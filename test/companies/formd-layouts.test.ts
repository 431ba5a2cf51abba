// The SEC's Form D tables as they may come: the zip with its tables in a folder or at its root,
// Windows line ends, a byte-order mark, lower-case file names, Windows-1252 text, short rows. Every
// variation reads to the same companies; what cannot be read is refused with the reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { FormDInputError, formDTablesOfZip, readFormD } from '../../src/ingest/companies/formd.ts';
import type { CompanyInput } from '../../src/companies/input.ts';

const DIR = 'test/fixtures/companies/formd';
const TABLES = ['FORMDSUBMISSION', 'ISSUERS', 'OFFERING', 'RELATEDPERSONS'] as const;
const original = Object.fromEntries(TABLES.map((t) => [t, readFileSync(join(DIR, `${t}.tsv`), 'utf8')])) as Record<
  (typeof TABLES)[number],
  string
>;

async function companiesOf(zip: Uint8Array): Promise<{ names: string[]; inputs: CompanyInput[]; errors: string[] }> {
  const formD = await readFormD(formDTablesOfZip(zip, 'test.zip'));
  const inputs: CompanyInput[] = [];
  const errors: string[] = [];
  for await (const record of formD.records) {
    if ('input' in record) inputs.push(record.input);
    else errors.push(record.error);
  }
  return { names: inputs.map((i) => i.name!), inputs, errors };
}

const zipOf = (files: Record<string, string | Uint8Array>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, body]) => [name, typeof body === 'string' ? Buffer.from(body) : body])));

describe('Form D data set layouts', () => {
  it('reads the same companies whatever the zip layout, line ends, byte-order mark and file-name case', async () => {
    const expected = await companiesOf(zipOf(Object.fromEntries(TABLES.map((t) => [`2024Q1_d/${t}.tsv`, original[t]]))));
    assert.ok(expected.names.includes('Nimbus Robotics, Inc.'), expected.names.join(', '));
    const variants = [
      Object.fromEntries(TABLES.map((t) => [`${t}.tsv`, original[t]])),
      Object.fromEntries(TABLES.map((t) => [`2024Q1_d/${t.toLowerCase()}.TSV`, original[t]])),
      Object.fromEntries(TABLES.map((t) => [`2024Q1_d\\${t}.tsv`, original[t]])),
      Object.fromEntries(TABLES.map((t) => [`2024Q1_d/${t}.tsv`, `\ufeff${original[t].replace(/\n/g, '\r\n')}`])),
    ];
    for (const files of variants) assert.deepEqual(await companiesOf(zipOf(files)), expected, Object.keys(files)[0]);
  });

  it('reads Windows-1252 text (accents) and short rows (missing last columns read as empty)', async () => {
    const accented = original.ISSUERS.replace('Nimbus Robotics, Inc.', 'Nimbus Robótica, Inc.');
    const latin1 = Buffer.from(accented, 'latin1');
    const short = original.RELATEDPERSONS.split('\n')
      .map((line, i) => (i === 0 ? line : line.split('\t').slice(0, 5).join('\t')))
      .join('\n');
    const { names, inputs } = await companiesOf(
      zipOf({ ...Object.fromEntries(TABLES.map((t) => [t + '.tsv', original[t]])), 'ISSUERS.tsv': latin1, 'RELATEDPERSONS.tsv': short }),
    );
    assert.ok(names.includes('Nimbus Robótica, Inc.'), names.join(', '));
    const nimbus = inputs.find((i) => i.name === 'Nimbus Robótica, Inc.')!;
    // Without the relationship columns, a named person is still read but has no title to give.
    assert.ok(Array.isArray(nimbus.leadership));
  });

  it('refuses what is not a data set, naming what is wrong', async () => {
    assert.throws(() => formDTablesOfZip(Buffer.from('<html>Access denied</html>'), 'q.zip'), FormDInputError);
    assert.throws(() => formDTablesOfZip(Buffer.from('<html>Access denied</html>'), 'q.zip'), /q\.zip: not a zip archive/);
    assert.throws(
      () => formDTablesOfZip(zipOf({ 'ISSUERS.tsv': original.ISSUERS }), 'q.zip'),
      /q\.zip: the zip has no FORMDSUBMISSION\.tsv, OFFERING\.tsv, RELATEDPERSONS\.tsv/,
    );
    const headless = zipOf({ ...Object.fromEntries(TABLES.map((t) => [`${t}.tsv`, original[t]])), 'OFFERING.tsv': '' });
    await assert.rejects(readFormD(formDTablesOfZip(headless, 'q.zip')), /OFFERING\.tsv is empty/);
    const wrong = zipOf({
      ...Object.fromEntries(TABLES.map((t) => [`${t}.tsv`, original[t]])),
      'ISSUERS.tsv': 'name\tcity\nAcme\tBoston\n',
    });
    await assert.rejects(readFormD(formDTablesOfZip(wrong, 'q.zip')), /ISSUERS\.tsv has no ACCESSIONNUMBER column/);
    await assert.rejects(readFormD('test/fixtures/companies/no-such-dir'), /does not exist/);
  });
});
