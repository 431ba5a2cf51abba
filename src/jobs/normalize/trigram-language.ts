// franc's trigram language guess (franc-min 6: its models and script expressions, the same answer
// for every input), computed from an inverted index built once: each of the sample's distinct
// trigrams is looked up once and touches only the languages whose model has it, instead of franc's
// one object lookup per trigram and language (about 1 ms a sample, the costliest step of an import).
import { data } from 'franc-min/data.js';
import { expressions } from 'franc-min/expressions.js';

const MISSING = 300; // franc's distance for a trigram a model does not have
const MIN_LENGTH = 20;
const MAX_LENGTH = 2048;

interface ScriptModel {
  languages: string[];
  /** Per trigram (as trigramKey): (language index << 16 | rank) for each model containing it. */
  postings: Map<number, Int32Array>;
}

/** Three UTF-16 code units as one number (48 bits), so counting needs no substring per trigram. */
function trigramKey(text: string, i: number): number {
  return text.charCodeAt(i) * 0x1_0000_0000 + text.charCodeAt(i + 1) * 0x1_0000 + text.charCodeAt(i + 2);
}

let models: Map<string, ScriptModel> | undefined;

function buildModels(): Map<string, ScriptModel> {
  const out = new Map<string, ScriptModel>();
  for (const [script, byLanguage] of Object.entries(data)) {
    const languages = Object.keys(byLanguage);
    const lists = new Map<number, number[]>();
    languages.forEach((language, index) => {
      const ranks = new Map<string, number>();
      const model = byLanguage[language].split('|');
      // franc keeps a repeated trigram's first rank.
      for (let rank = model.length - 1; rank >= 0; rank--) ranks.set(model[rank], rank);
      for (const [trigram, rank] of ranks) {
        if (trigram.length !== 3) continue; // could never equal a sample's trigram
        const key = trigramKey(trigram, 0);
        const list = lists.get(key);
        if (list) list.push((index << 16) | rank);
        else lists.set(key, [(index << 16) | rank]);
      }
    });
    const postings = new Map<number, Int32Array>();
    for (const [trigram, list] of lists) postings.set(trigram, Int32Array.from(list));
    out.set(script, { languages, postings });
  }
  return out;
}

const SCRIPTS = Object.keys(expressions);
/** Each script's expression anchored to one character, to classify single code units. */
const SINGLE_UNIT = SCRIPTS.map((script) => new RegExp(`^(?:${expressions[script].source})$`, expressions[script].flags.replace('g', '')));
/** Per BMP code unit, the bit set of scripts whose expression matches it alone; filled on first sight. */
const scriptBits = new Uint32Array(0x10000);
const classified = new Uint8Array(0x10000);
const SURROGATE = /[\uD800-\uDFFF]/;

function bitsOf(code: number): number {
  if (!classified[code]) {
    const char = String.fromCharCode(code);
    let bits = 0;
    for (let k = 0; k < SINGLE_UNIT.length; k++) if (SINGLE_UNIT[k].test(char)) bits |= 1 << k;
    scriptBits[code] = bits;
    classified[code] = 1;
  }
  return scriptBits[code];
}

/** How many matches each script's expression has in the text (franc counts with String#match). */
function scriptCounts(value: string): number[] {
  // Some expressions match surrogate pairs as one match: such text is counted franc's way.
  if (SURROGATE.test(value)) return SCRIPTS.map((script) => value.match(expressions[script])?.length ?? 0);
  // Otherwise every match is one code unit that the expression matches on its own.
  const counts = new Array<number>(SCRIPTS.length).fill(0);
  for (let i = 0; i < value.length; i++) {
    let bits = bitsOf(value.charCodeAt(i));
    while (bits) {
      const k = 31 - Math.clz32(bits & -bits);
      counts[k]++;
      bits &= bits - 1;
    }
  }
  return counts;
}

/** The script most of the text is written in (franc's getTopScript: first of the most frequent). */
function topScript(value: string): [string, number] {
  const counts = scriptCounts(value);
  let top = '';
  let topCount = -1;
  for (let k = 0; k < SCRIPTS.length; k++) {
    const count = counts[k] / value.length || 0;
    if (count > topCount) {
      topCount = count;
      top = SCRIPTS[k];
    }
  }
  return [top, topCount];
}

/** Distinct trigrams (as trigramKey) of franc's cleaned text with their counts. */
function trigramCounts(value: string): Map<number, number> {
  const cleaned = ` ${value
    .replace(/[\u0021-\u0040]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()} `;
  const counts = new Map<number, number>();
  for (let i = 0; i + 3 <= cleaned.length; i++) {
    const key = trigramKey(cleaned, i);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** ISO 639-3 code of the most probable language, or "und"; equal to franc-min's `franc(text, { minLength: 20 })`. */
export function guessLanguageByTrigrams(text: string): string {
  if (!text || text.length < MIN_LENGTH) return 'und';
  const value = text.slice(0, MAX_LENGTH);
  const [script, share] = topScript(value);
  models ??= buildModels();
  const model = models.get(script);
  if (!model) return share === 0 ? 'und' : script;
  const counts = trigramCounts(value);
  // Every language starts as if it had none of the trigrams; each model hit replaces MISSING by |count - rank - 1|.
  const distances = new Float64Array(model.languages.length).fill(MISSING * counts.size);
  for (const [trigram, count] of counts) {
    const list = model.postings.get(trigram);
    if (!list) continue;
    for (let k = 0; k < list.length; k++) {
      const entry = list[k];
      distances[entry >>> 16] += Math.abs(count - (entry & 0xffff) - 1) - MISSING;
    }
  }
  let best = 0;
  for (let i = 1; i < distances.length; i++) if (distances[i] < distances[best]) best = i;
  return model.languages[best];
}
