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
  /** Per trigram: (language index << 16 | rank) for each model containing it. */
  postings: Map<string, Int32Array>;
}

let models: Map<string, ScriptModel> | undefined;

function buildModels(): Map<string, ScriptModel> {
  const out = new Map<string, ScriptModel>();
  for (const [script, byLanguage] of Object.entries(data)) {
    const languages = Object.keys(byLanguage);
    const lists = new Map<string, number[]>();
    languages.forEach((language, index) => {
      const ranks = new Map<string, number>();
      const model = byLanguage[language].split('|');
      // franc keeps a repeated trigram's first rank.
      for (let rank = model.length - 1; rank >= 0; rank--) ranks.set(model[rank], rank);
      for (const [trigram, rank] of ranks) {
        const list = lists.get(trigram);
        if (list) list.push((index << 16) | rank);
        else lists.set(trigram, [(index << 16) | rank]);
      }
    });
    const postings = new Map<string, Int32Array>();
    for (const [trigram, list] of lists) postings.set(trigram, Int32Array.from(list));
    out.set(script, { languages, postings });
  }
  return out;
}

/** The script most of the text is written in (franc's getTopScript: first of the most frequent). */
function topScript(value: string): [string, number] {
  let top = '';
  let topCount = -1;
  for (const script in expressions) {
    const matches = value.match(expressions[script]);
    const count = (matches ? matches.length : 0) / value.length || 0;
    if (count > topCount) {
      topCount = count;
      top = script;
    }
  }
  return [top, topCount];
}

/** Distinct trigrams of franc's cleaned text with their counts. */
function trigramCounts(value: string): Map<string, number> {
  const cleaned = ` ${value.replace(/[\u0021-\u0040]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase()} `;
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= cleaned.length; i++) {
    const trigram = cleaned.slice(i, i + 3);
    counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
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
