// Jobs normalization alone (no database): CPU per listing of normalizeListing over synthetic
// postings (bench/support/jobs-generator.ts: HTML descriptions, 5% not English, a quarter with the
// source's language code, varied locations), against the baseline of generating the same postings.
// Three rounds, median reported.
//   npm run bench -- jobs-normalize                 50,000 listings (--quick: 20,000)
//   npm run bench -- jobs-normalize --listings=N
import { normalizeListing } from '../src/jobs/listing.ts';
import { generateBoards, type GeneratedBoard } from './support/jobs-generator.ts';
import { fmt, ratio } from './support/stats.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const quick = process.argv.includes('--quick');
const LISTINGS = Number(arg('listings', quick ? '20000' : '50000'));
const COMPANIES = Math.max(1, Math.round(LISTINGS / 50));
const NOW = Date.parse('2026-11-20T12:00:00Z');
const ROUNDS = 3;

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function generate(): GeneratedBoard[] {
  return [...generateBoards({ listings: LISTINGS, companies: COMPANIES, now: NOW })];
}

console.log(
  `jobs normalization benchmark: ${LISTINGS.toLocaleString('en')} synthetic listings over ${COMPANIES.toLocaleString('en')} boards, median of ${ROUNDS} rounds`,
);

// Warm-up: the city index loads on first use and the JIT settles.
for (const board of generateBoards({ listings: 5000, companies: 100, now: NOW, seed: 7 })) {
  for (const raw of board.listings) normalizeListing(raw, { source: board.source, board: board.board, now: NOW });
}

const generatorCpu: number[] = [];
const normalizeCpu: number[] = [];
const normalizeWall: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  let c = cpuMicros();
  const boards = generate();
  generatorCpu.push((cpuMicros() - c) / LISTINGS);
  c = cpuMicros();
  const t = performance.now();
  let sink = 0;
  for (const board of boards) {
    for (const raw of board.listings)
      sink += normalizeListing(raw, { source: board.source, board: board.board, now: NOW }).description.length;
  }
  normalizeWall.push(performance.now() - t);
  normalizeCpu.push((cpuMicros() - c) / LISTINGS);
  if (sink === 0) throw new Error('nothing normalized');
}

const sample = generate().flatMap((b) => b.listings);
const htmlBytes = sample.reduce((sum, l) => sum + Buffer.byteLength(l.descriptionHtml), 0) / sample.length;
console.log(`mean description: ${htmlBytes.toFixed(0)} bytes of HTML`);
const gen = median(generatorCpu);
const norm = median(normalizeCpu);
const rate = LISTINGS / (median(normalizeWall) / 1000);
console.log(
  [
    '| measure | value | vs baseline |',
    '|---|---|---|',
    `| baseline: generating the postings | ${fmt(gen, 1)} µs CPU per listing | 1.00x |`,
    `| normalizeListing, one thread | ${fmt(norm, 1)} µs CPU per listing, ${fmt(rate, 0)} listings/s | ${ratio(norm, gen)} |`,
  ].join('\n'),
);
