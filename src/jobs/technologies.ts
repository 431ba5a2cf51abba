// The technologies a text names, read against the maintained dictionary src/jobs/technologies.json
// (its origin and licence are in the file and in docs/companies.md, Technographics). Names are
// matched as whole words, longest first. How a name must be written depends on how distinctive it is:
// - a distinctive name (a digit or . + # in it, an inner capital as in "PostgreSQL", or an acronym
//   longer than three letters) matches in any case;
// - a name of plain English words ("Constant Contact", "Ruby on Rails") matches only as written;
// - a single plain word or a name of three letters or fewer ("Go", "React", "Base") matches only as
//   written AND with technical context: within CONTEXT_WINDOW words of the same sentence, a technology of the two kinds
//   above or two other such plain names (a list: "Python, Go and React"), or a word of CONTEXT_WORDS
//   right beside it ("Go developer", "React framework"). Otherwise "Go to market" or "React quickly"
//   would count.
import { readFileSync } from 'node:fs';

/** One technology of the dictionary. */
export interface Technology {
  name: string;
  categories: string[];
  description: string | null;
}

interface Entry extends Technology {
  /** How the name must appear: any case, exactly as written, or as written with technical context. */
  match: 'any' | 'exact' | 'context';
  /** The name's words as the tokenizer reads them, case kept. */
  words: string[];
}

/** Words around a named technology within which another one gives a context-only name its context. */
const CONTEXT_WINDOW = 8;
/** Words that, right beside a context-only name, say it is meant as a technology. */
const CONTEXT_WORDS = new Set([
  'developer',
  'developers',
  'development',
  'engineer',
  'engineers',
  'engineering',
  'programming',
  'programmer',
  'language',
  'languages',
  'framework',
  'frameworks',
  'library',
  'libraries',
  'stack',
  'sdk',
  'api',
  'apis',
  'platform',
  'cloud',
  'database',
  'databases',
]);
/** Where a sentence ends: context is read within one sentence ("… Salesforce. Go to market …" names no Go). */
const SENTENCE_END = /[.!?]\s+|\n+/;
/** Longest name in words: the matcher tries phrases up to this length. */
const MAX_WORDS = 6;

/** A word: letters and digits, with inner dots, dashes, pluses and hashes ("node.js", "c++", "c#"), or a leading dot (".net"). */
const WORD = /\.?[\p{L}\p{N}](?:[\p{L}\p{N}+#]|[.\-'](?=[\p{L}\p{N}]))*/gu;

function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

interface DictionaryFile {
  origin: string;
  technologies: { name: string; categories: string[]; description?: string; match?: 'exact' | 'context' }[];
}

/** The dictionary, indexed by each name's words in lower case. */
class Dictionary {
  readonly size: number;
  private readonly byPhrase = new Map<string, Entry[]>();
  /** The longest name (in words) starting with each first word: most words start none, and are passed at once. */
  private readonly longestFrom = new Map<string, number>();

  constructor(file: DictionaryFile) {
    this.size = file.technologies.length;
    for (const t of file.technologies) {
      const words = wordsOf(t.name);
      if (!words.length || words.length > MAX_WORDS) continue;
      const entry: Entry = { name: t.name, categories: t.categories, description: t.description ?? null, match: t.match ?? 'any', words };
      const key = words.join(' ').toLowerCase();
      this.byPhrase.set(key, [...(this.byPhrase.get(key) ?? []), entry]);
      const first = words[0].toLowerCase();
      this.longestFrom.set(first, Math.max(this.longestFrom.get(first) ?? 0, words.length));
    }
  }

  /** The technologies `text` names (each once), by the rules at the top of this file. */
  namedIn(text: string): Technology[] {
    const found = new Map<string, Technology>();
    for (const sentence of text.split(SENTENCE_END)) this.collect(sentence, found);
    return [...found.values()].map(({ name, categories, description }) => ({ name, categories, description }));
  }

  /** Adds the technologies one sentence names to `found` (context is read within the sentence). */
  private collect(sentence: string, found: Map<string, Technology>): void {
    const words = wordsOf(sentence);
    const lower = words.map((w) => w.toLowerCase());
    const hits: { entry: Entry; at: number; end: number }[] = [];
    for (let i = 0; i < words.length; i++) {
      const longest = this.longestFrom.get(lower[i]);
      if (!longest) continue;
      // Longest phrase first: "Google Analytics" wins over "Google".
      for (let n = Math.min(longest, words.length - i); n >= 1; n--) {
        const candidates = this.byPhrase.get(n === 1 ? lower[i] : lower.slice(i, i + n).join(' '));
        const entry = candidates?.find((c) => c.match === 'any' || c.words.every((w, k) => w === words[i + k]));
        if (entry) {
          hits.push({ entry, at: i, end: i + n });
          i += n - 1;
          break;
        }
      }
    }
    for (const hit of hits) {
      if (hit.entry.match === 'context' && !hasContext(hit, hits, lower)) continue;
      found.set(hit.entry.name, hit.entry);
    }
  }
}

function hasContext(hit: { entry: Entry; at: number; end: number }, hits: { entry: Entry; at: number }[], lower: string[]): boolean {
  if (CONTEXT_WORDS.has(lower[hit.at - 1] ?? '') || CONTEXT_WORDS.has(lower[hit.end] ?? '')) return true;
  const near = hits.filter((h) => h.entry.name !== hit.entry.name && Math.abs(h.at - hit.at) <= CONTEXT_WINDOW);
  // A distinctive name nearby, or a list of at least three plain ones.
  return near.some((h) => h.entry.match !== 'context') || new Set(near.map((h) => h.entry.name)).size >= 2;
}

let loaded: Dictionary | undefined;

/** The maintained dictionary (read once). */
export function technologies(): Dictionary {
  return (loaded ??= new Dictionary(JSON.parse(readFileSync(new URL('./technologies.json', import.meta.url), 'utf8')) as DictionaryFile));
}
