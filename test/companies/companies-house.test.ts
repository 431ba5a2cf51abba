import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { csvRecords, normalizeCompanyNumber, readCompaniesHouse, UnreadableFileError } from '../../src/ingest/companies/companies-house.ts';
import { importCompaniesHouseFile } from '../../src/ingest/companies/companies-house-import.ts';
import type { SourceRecord } from '../../src/ingest/companies/runner.ts';
import type { CompanyInput } from '../../src/companies/input.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { runLeadbase } from '../support/cli.ts';

const REAL = 'test/fixtures/real/companies/companies-house';
const SAMPLE = join(REAL, 'basic-sample-2021.csv');
const PART1 = join(REAL, 'BasicCompanyData-2018-02-01-part1_2.zip');
const PART2 = join(REAL, 'BasicCompanyData-2018-02-01-part2_2.zip');

const dir = mkdtempSync(join(tmpdir(), 'leadbase-companies-house-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function all(path: string): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const r of readCompaniesHouse(path).records) out.push(r);
  return out;
}
const inputs = (records: SourceRecord[]) => records.flatMap((r) => ('input' in r ? [r.input] : []));
const byNumber = (records: SourceRecord[], number: string): CompanyInput =>
  inputs(records).find((i) => i.external_ids?.companies_house === number)!;

/** A file of the sample's header with these lines after it. */
function sampleWith(name: string, lines: string[]): string {
  const header = readFileSync(SAMPLE, 'utf8').split('\n')[0];
  const path = join(dir, name);
  writeFileSync(path, `${[header, ...lines].join('\n')}\n`);
  return path;
}
const sampleRows = () => readFileSync(SAMPLE, 'utf8').split('\n').slice(1, -1);

describe('Companies House BasicCompanyData reader (recorded real files)', () => {
  it('reads the 2021 one-file sample: header with leading spaces, every field quoted, doubled quotes, previous names, SIC codes', async () => {
    const records = await all(SAMPLE);
    assert.equal(records.length, 31);
    assert.equal(records.filter((r) => 'error' in r).length, 0, JSON.stringify(records.filter((r) => 'error' in r)));
    const obac = byNumber(records, '07687209');
    assert.equal(obac.name, '!OBAC UK LIMITED');
    assert.deepEqual(obac.aliases, ['!OBAC FITTINGS LIMITED']);
    assert.equal(obac.founded_year, 2011);
    assert.equal(obac.company_type, 'private');
    assert.equal(obac.status, 'active');
    assert.deepEqual(obac.sectors, ['70229 - Management consultancy activities other than financial management']);
    assert.equal(obac.industry, 'Management consultancy activities other than financial management');
    assert.deepEqual(obac.location, {
      street_address: 'UNIT 9   BERRY COURT FARM BRAMLEY ROAD',
      address_line_2: 'LITTLE LONDON',
      locality: 'TADLEY',
      region: 'HAMPSHIRE',
      postal_code: 'RG26 5AT',
      country: 'United Kingdom',
    });
    assert.equal(byNumber(records, '03811958').name, '"1 C O LIMITED"', 'doubled quotes inside a quoted field');
    assert.deepEqual(byNumber(records, '11191833').aliases, ['"ALLWELL" NATURAL HEALTH LTD']);
    assert.equal(byNumber(records, '11743365').sectors!.length, 4);
    assert.equal(byNumber(records, 'SC606050').location!.country, 'United Kingdom', 'SCOTLAND is in the United Kingdom');
    assert.equal(byNumber(records, 'FC027187').location!.country, 'MONGOLIA', 'an overseas company keeps its country');
    assert.equal(byNumber(records, 'FC027187').company_type, null, '"Other company type" says nothing');
    const cio = byNumber(records, 'CE000952');
    assert.equal(cio.company_type, 'nonprofit');
    assert.equal(cio.location!.country, null, 'no address, no country');
    assert.deepEqual(cio.sectors, [], '"None Supplied" is no SIC code');
  });

  it('reads the zips of a release in parts as downloaded: the CSV inside, a __MACOSX fork passed over, lost leading zeros restored', async () => {
    const input = readCompaniesHouse(PART1);
    const records: SourceRecord[] = [];
    for await (const r of input.records) records.push(r);
    assert.equal(input.entryName(), 'BasicCompanyData-2018-02-01-part1_2.csv');
    assert.equal(records.length, 9);
    assert.equal(byNumber(records, '08209948').name, '! LTD', '8209948 is 08209948');
    assert.equal(byNumber(records, '07382019').status, 'active - proposal to strike off');
    assert.ok(input.unreadColumns().includes('Accounts.AccountCategory'), 'columns we do not read are reported');
    assert.ok(!input.unreadColumns().includes('URI'), 'the URI is the company number');
    const second = await all(PART2);
    assert.equal(second.length, 14);
    assert.deepEqual(byNumber(second, '10694769').aliases, ['MAZ A&T SERVICES LIMITED']);
  });

  it('refuses rows it cannot read, with their line and reason, and reads the rest', async () => {
    const good = sampleRows().slice(0, 3);
    const path = sampleWith('broken-rows.csv', [
      good[0],
      good[1].replace('"08209948"', '""'),
      good[1].replace('"11/09/2012"', '"2012-09-11"'),
      '"SHORT LTD","01234567"',
      `"BROKEN "QUOTE" LTD",${good[2].slice(good[2].indexOf(',') + 1)}`,
      good[2],
    ]);
    const records = await all(path);
    assert.deepEqual(
      records.map((r) => ('error' in r ? `${r.line}: ${r.error}` : `${r.line}: ok`)),
      [
        '2: ok',
        '3: CompanyNumber is not a company number: ""',
        '4: IncorporationDate is not a dd/mm/yyyy date: "2012-09-11"',
        '5: has 2 fields where the header has 55',
        '6: malformed CSV: text after a closing quote',
        '7: ok',
      ],
    );
  });

  it('refuses a file that is not a BasicCompanyData zip or CSV as a whole, never as an empty file', async () => {
    const cases: [string, Buffer | string, RegExp][] = [
      ['page.html', '<html><body>Service unavailable</body></html>', /no CompanyName and CompanyNumber/],
      ['empty.csv', '', /no header row/],
      ['other.zip', Buffer.from(zipSync({ 'readme.txt': strToU8('hello') })), /holds no CSV/],
      ['cut.zip', readFileSync(PART1).subarray(0, 900), /cut short|cannot be|not a readable/],
      ['two.zip', Buffer.from(zipSync({ 'a.csv': readFileSync(SAMPLE), 'b.csv': readFileSync(SAMPLE) })), /more than one CSV/],
    ];
    for (const [name, body, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, body);
      await assert.rejects(all(path), (error: Error) => error instanceof UnreadableFileError && message.test(error.message), name);
    }
  });

  it('reads CSV the same whatever the chunks it arrives in (quotes, CRLF and line breaks inside a field)', async () => {
    const text = `a,b,c\r\n"x ""y""","line\none",3\r\n,,\r\n"q",z,\n`;
    const whole: unknown[] = [];
    for await (const r of csvRecords([text])) whole.push(r);
    assert.deepEqual(whole, [
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['x "y"', 'line\none', '3'] },
      { line: 4, fields: ['', '', ''] },
      { line: 5, fields: ['q', 'z', ''] },
    ]);
    const bytes = Buffer.from(text);
    const single: unknown[] = [];
    for await (const r of csvRecords([...bytes].map((b) => Uint8Array.of(b)))) single.push(r);
    assert.deepEqual(single, whole);
  });

  it('keeps company numbers as the register writes them', () => {
    assert.equal(normalizeCompanyNumber('8209948'), '08209948');
    assert.equal(normalizeCompanyNumber('SC421617'), 'SC421617');
    assert.equal(normalizeCompanyNumber('sc 21617'), 'SC021617');
    assert.equal(normalizeCompanyNumber('R0000123'), 'R0000123');
    assert.equal(normalizeCompanyNumber('not a number'), null);
  });
});

for (const target of dbTargets) {
  describe(`Companies House import into the company store (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
    });
    after(async () => database?.destroy());

    const externalId = async (number: string) =>
      (
        await database.db
          .selectFrom('company_external_ids')
          .select('company_id')
          .where('kind', '=', 'companies_house')
          .where('value', '=', number)
          .executeTakeFirst()
      )?.company_id;

    it('stores every company of the file with its number as id, and a second load changes nothing', async () => {
      // Known before: one company by name in the same town (matched), one of the same name elsewhere (not).
      const known = await companies.upsertCompany(
        { name: 'Acorn Residents Property Management Ltd', location: { locality: 'Birmingham', country: 'GB' } },
        'jobs:test',
      );
      const elsewhere = await companies.upsertCompany(
        { name: '!nspired Ltd', location: { locality: 'Leeds', country: 'GB' } },
        'jobs:test',
      );
      const rows = sampleRows();
      const withNamesake = rows.map((r) =>
        r.includes('"05914136"')
          ? r.replace('"""243 RUGBY ROAD MANAGEMENT COMPANY LIMITED"""', '"ACORN RESIDENTS PROPERTY MANAGEMENT LIMITED"')
          : r,
      );
      const path = sampleWith('store.csv', withNamesake);
      const summary = await importCompaniesHouseFile({ service: companies, path, parallel: false, batchSize: 7 }).done;
      assert.deepEqual([summary.read, summary.inserted, summary.updated, summary.rejectedTotal], [31, 30, 1, 0]);
      assert.equal(await externalId('05914136'), known.id, 'same name, same town: the company we knew');
      assert.notEqual(await externalId('SC421617'), elsewhere.id, 'same name in another town: a company of its own');
      const stored = (await companies.repository.getById(Number(await externalId('07687209'))))!;
      assert.equal(stored.name, '!OBAC UK LIMITED');
      assert.equal(stored.postal_code, 'rg26 5at');
      assert.equal(stored.country_code, 'GB');
      assert.equal(stored.founded_year, 2011);
      assert.equal((await companies.matchByName('!OBAC FITTINGS LIMITED'))?.id, stored.id, 'a previous name finds the company');

      const again = await importCompaniesHouseFile({ service: companies, path, parallel: true }).done;
      assert.deepEqual([again.read, again.inserted, again.updated, again.unchanged], [31, 0, 0, 31]);
    });

    it('two companies of one name in one file stay two companies', async () => {
      const [a, b] = sampleRows();
      const twin = b.replace('"! LTD"', '"! LIMITED"').replace('"08209948"', '"08209949"');
      const path = sampleWith('twins.csv', [a.replace('"12778855"', '"12778856"'), twin]);
      const summary = await importCompaniesHouseFile({ service: companies, path, parallel: false }).done;
      assert.equal(summary.inserted, 2);
      assert.notEqual(await externalId('12778856'), await externalId('08209949'));
    });

    it('checkpoints inside a file, and a load resumed at a checkpoint passes over the rows stored', async () => {
      const checkpoints: number[] = [];
      const path = sampleWith('checkpoints.csv', sampleRows());
      const first = await importCompaniesHouseFile({
        service: companies,
        path,
        parallel: false,
        batchSize: 5,
        checkpointRows: 10,
        onCheckpoint: async (rows) => void checkpoints.push(rows),
      }).done;
      assert.equal(first.read, 31);
      assert.deepEqual(checkpoints, [10, 20, 30]);
      const resumed = await importCompaniesHouseFile({ service: companies, path, parallel: true, batchSize: 5, skipRows: 20 }).done;
      assert.equal(resumed.read, 11);
    });
  });
}

describe('leadbase import companies companies-house (CLI)', () => {
  const env = () => ({ ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' });

  it('imports the zip as downloaded and the CSV, and fails on a file it cannot read', async () => {
    const zip = await runLeadbase(['import', 'companies', 'companies-house', PART1, '--json'], env(), 60_000);
    assert.equal(zip.status, 0, zip.stderr);
    const summary = JSON.parse(zip.stdout);
    assert.deepEqual([summary.read, summary.inserted, summary.rejected], [9, 9, 0]);
    assert.ok(summary.unread_columns.includes('Mortgages.NumMortCharges'));
    const csv = await runLeadbase(['import', 'companies', 'companies-house', SAMPLE, '-q', '--no-parallel'], env(), 60_000);
    assert.equal(csv.status, 0, csv.stderr);
    assert.match(csv.stdout, /read 31, inserted \d+, updated \d+, unchanged \d+, rejected 0/);
    const page = join(dir, 'not-data.zip');
    writeFileSync(page, '<html>Access denied</html>');
    const bad = await runLeadbase(['import', 'companies', 'companies-house', page, '-q'], env(), 60_000);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /not a Companies House basic company data CSV/);
    const help = await runLeadbase(['import', 'companies', 'companies-house', '--help'], env(), 60_000);
    assert.match(help.stdout, /BasicCompanyData/);
  });
});
