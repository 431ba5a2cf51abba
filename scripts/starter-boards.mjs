#!/usr/bin/env node
// Builds starter/job-boards.csv, the registry of public job boards `leadbase bootstrap` starts from,
// out of lists other projects published (docs/data/boards.md says which, and how to refresh them).
//
//   node --import tsx scripts/starter-boards.mjs TYPE=FILE… > starter/job-boards.csv
//
// Each FILE is one list for one ATS TYPE, a CSV with a header naming `url` and optionally `slug` and
// `name`. Every row goes through the registry's own rules (boardOfUrl, normalizeLocator); a row it
// refuses is counted and left out, duplicates (same type, same token in any case) are kept once.
// The counts per list go to standard error, for starter/ORIGINS.md.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { boardOfUrl } from '../src/sources/ats-links.ts';
import { normalizeLocator } from '../src/sources/registry.ts';

const letters = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const csvField = (text) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** The row's board as the registry stores it, or the reason it is refused. */
function boardOf(type, row) {
  const url = (row.url ?? '').trim();
  const ref = url ? boardOfUrl(url) : null;
  const candidates = [];
  if (ref && ref.type === type) candidates.push(ref.baseUrl ? url : ref.board);
  if (row.slug?.trim()) candidates.push(row.slug.trim());
  if (url && !/^https?:/i.test(url)) candidates.push(url);
  let reason = `not a ${type} board: ${url || '(no url)'}`;
  for (const candidate of candidates) {
    try {
      return {
        locator: candidate.startsWith('http') ? candidate : normalizeLocator(type, candidate).locator,
        key: normalizeLocator(type, candidate).key,
      };
    } catch (error) {
      reason = error.message;
    }
  }
  return { reason };
}

const seen = new Set();
const out = [];
for (const arg of process.argv.slice(2)) {
  const [type, file] = arg.split(/=(.*)/s);
  const rows = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  const counts = { read: rows.length, taken: 0, named: 0, duplicate: 0, refused: 0 };
  const reasons = new Map();
  for (const row of rows) {
    const board = boardOf(type, row);
    if ('reason' in board) {
      counts.refused++;
      reasons.set(board.reason, (reasons.get(board.reason) ?? 0) + 1);
      continue;
    }
    const id = `${type}\t${board.key}`;
    if (seen.has(id)) {
      counts.duplicate++;
      continue;
    }
    seen.add(id);
    // A name that only spells the token again (re-cased) says nothing the board will not say better.
    const name = (row.name ?? '').trim();
    const given = name && letters(name) !== letters(board.key) && letters(name) !== letters(row.slug ?? '') ? name : '';
    if (given) counts.named++;
    counts.taken++;
    out.push({ type, locator: board.locator, name: given });
  }
  console.error(`${type} ${file}: ${JSON.stringify(counts)}`);
  for (const [reason, n] of [...reasons].slice(0, 5)) console.error(`  refused ${n}: ${reason}`);
}
out.sort((a, b) => a.type.localeCompare(b.type) || a.locator.toLowerCase().localeCompare(b.locator.toLowerCase()));
process.stdout.write('type,locator,company_name,company_website\n');
for (const row of out) process.stdout.write(`${row.type},${csvField(row.locator)},${csvField(row.name)},\n`);
