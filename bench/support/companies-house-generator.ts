// A BasicCompanyData file at scale, made from the shapes of recorded real rows
// (test/fixtures/real/companies/companies-house/): the real header, quoting and columns; each row
// a recorded row with a name, company number, postcode and URI of its own, written as the zip
// Companies House publishes (one CSV inside, deflated).
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { parse } from 'csv-parse/sync';
import { Zip, ZipDeflate } from 'fflate';

const SAMPLE = 'test/fixtures/real/companies/companies-house/basic-sample-2021.csv';
const WORDS = ['NORTHERN', 'ACORN', 'HARBOUR', 'VALE', 'MERIDIAN', 'KESTREL', 'ORCHARD', 'BRIDGE', 'SUMMIT', 'CASTLE', 'RIVER', 'OAK'];
const TOWNS = [
  ['LONDON', 'EC1V'],
  ['LEEDS', 'LS10'],
  ['MANCHESTER', 'M40'],
  ['ABERDEEN', 'AB11'],
  ['CARDIFF', 'CF14'],
  ['BELFAST', 'BT12'],
  ['BIRMINGHAM', 'B3'],
] as const;

const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** The recorded header line and rows (as field arrays). */
function recorded(): { header: string; rows: string[][] } {
  const text = readFileSync(SAMPLE, 'utf8');
  const header = text.slice(0, text.indexOf('\n'));
  const all: string[][] = parse(text, { from_line: 2 });
  const rows = all.filter((r) => r.length > 30);
  return { header, rows };
}

/** The name of generated company `i` (unique; the bench looks a few up). */
export function generatedName(i: number): string {
  return `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${i} LIMITED`;
}

/** Company number of generated company `i`. */
export function generatedNumber(i: number): string {
  return String(10_000_000 + i).padStart(8, '0');
}

/** Writes `rows` companies as `BasicCompanyData…csv` inside the zip at `path`; returns its size in bytes. */
export async function writeCompaniesHouseZip(path: string, rows: number, entryName: string): Promise<number> {
  const { header, rows: templates } = recorded();
  const out = createWriteStream(path);
  let size = 0;
  const state: { failure: Error | null; finished: boolean } = { failure: null, finished: false };
  const zip = new Zip((error, chunk, final) => {
    if (error) state.failure = error;
    else {
      size += chunk.length;
      out.write(chunk);
    }
    if (final) state.finished = true;
  });
  const entry = new ZipDeflate(entryName, { level: 1 });
  zip.add(entry);
  entry.push(new TextEncoder().encode(`${header}\n`));
  const encoder = new TextEncoder();
  let lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const row = templates[i % templates.length].slice();
    const [town, district] = TOWNS[i % TOWNS.length];
    row[0] = generatedName(i);
    row[1] = generatedNumber(i);
    row[6] = town;
    row[9] = `${district} ${i % 10}${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + ((i >> 5) % 26))}`;
    row[32] = `http://business.data.gov.uk/id/company/${row[1]}`;
    lines.push(row.map(quote).join(','));
    if (lines.length === 5000) {
      entry.push(encoder.encode(`${lines.join('\n')}\n`));
      lines = [];
      if (out.writableNeedDrain) await once(out, 'drain');
    }
  }
  entry.push(encoder.encode(lines.length ? `${lines.join('\n')}\n` : ''), true);
  zip.end();
  if (state.failure) throw state.failure;
  if (!state.finished) throw new Error('the zip was not finished');
  out.end();
  await once(out, 'finish');
  return size;
}
