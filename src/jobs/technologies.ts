// The technologies a text names, read against the maintained dictionary src/jobs/technologies.json
// (its origin and licence are in the file and in docs/companies.md, Technographics; it is rebuilt by
// scripts/technologies.mjs). A technology is found by its name or by one of its aliases ("Kafka" for
// "Apache Kafka"), as whole words, longest first. How a name must be written depends on how
// distinctive it is (its `match`):
// - any: a distinctive name (a digit or . + # in it, an inner capital as in "PostgreSQL", or an
//   acronym longer than three letters) matches in any case;
// - exact: a name of plain English words ("Constant Contact", "Ruby on Rails") matches only as written;
// - context: a single plain word or a name of three letters or fewer ("React", "Base") matches only as
//   written AND with technical context: within CONTEXT_WINDOW words of the same sentence, a technology
//   of the two kinds above or two other plain names (a list: "Python, Go and React"), or a word of
//   CONTEXT_WORDS right beside it ("React framework"). Otherwise "React quickly" would count;
// - strict: an everyday word that prose often capitalises (a sentence's first word, a place, a season:
//   "Go", "Spring", "Salt", "Make") matches only as written AND either followed by a word of
//   STRICT_WORDS ("Go developer") or in a list with a technology that stands on its own ("Chef, Puppet
//   or Ansible": only separators between them). A technology merely nearby is not enough: "Make an
//   impact with Kubernetes" or "our Salt Lake City office runs Kafka" name no Make and no Salt.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One technology of the dictionary. */
export interface Technology {
  name: string;
  categories: string[];
  description: string | null;
}

/** How a name must appear (see the top of this file). */
type Match = 'any' | 'exact' | 'context' | 'strict';

interface Entry extends Technology {
  match: Match;
  /** The words of the name (or of the alias) as the tokenizer reads them, case kept. */
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
/** Words that, right after a strict name, say it is meant as a technology ("Go developer", "Spring framework"). */
const STRICT_WORDS = new Set([
  'developer',
  'developers',
  'engineer',
  'engineers',
  'programming',
  'programmer',
  'programmers',
  'language',
  'languages',
  'framework',
  'frameworks',
  'library',
  'libraries',
  'sdk',
]);
/** What may stand between two items of a list of technologies: "Chef, Puppet or Ansible", "Python/R", "Kubernetes (EKS)". */
const LIST_GAP = /^\s*(?:[,/;|&()]\s*)*(?:(?:and|or)\s+)?(?:[,/;|&()]\s*)*$/i;
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
  technologies: {
    name: string;
    categories: string[];
    description?: string;
    match?: Exclude<Match, 'any'>;
    /** Other spellings of the same technology, each with how it must appear. */
    aliases?: { name: string; match?: Exclude<Match, 'any'> }[];
  }[];
}

interface Hit {
  entry: Entry;
  /** The first word and the word after the last. */
  at: number;
  end: number;
}

/** The dictionary, indexed by each name's words in lower case. */
class Dictionary {
  readonly size: number;
  private readonly byPhrase = new Map<string, Entry[]>();
  /** The longest name (in words) starting with each first word: most words start none, and are passed at once. */
  private readonly longestFrom = new Map<string, number>();
  private readonly byName = new Map<string, Technology>();

  constructor(file: DictionaryFile) {
    this.size = file.technologies.length;
    for (const t of file.technologies) {
      const technology = { name: t.name, categories: t.categories, description: t.description ?? null };
      this.byName.set(t.name, technology);
      for (const spelling of [{ name: t.name, match: t.match }, ...(t.aliases ?? [])]) {
        const words = wordsOf(spelling.name);
        if (!words.length || words.length > MAX_WORDS) continue;
        const entry: Entry = { ...technology, match: spelling.match ?? 'any', words };
        const key = words.join(' ').toLowerCase();
        this.byPhrase.set(key, [...(this.byPhrase.get(key) ?? []), entry]);
        const first = words[0].toLowerCase();
        this.longestFrom.set(first, Math.max(this.longestFrom.get(first) ?? 0, words.length));
      }
    }
  }

  /** A technology by its name, or undefined when the dictionary has no such name (any more). */
  named(name: string): Technology | undefined {
    return this.byName.get(name);
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
    const hits: Hit[] = [];
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
    // Most sentences name nothing, or only names that need no context.
    if (hits.every((h) => h.entry.match === 'any' || h.entry.match === 'exact')) {
      for (const hit of hits) found.set(hit.entry.name, hit.entry);
      return;
    }
    const stands = new Set<Hit>();
    for (const hit of hits)
      if (hit.entry.match === 'any' || hit.entry.match === 'exact' || (hit.entry.match === 'context' && hasContext(hit, hits, lower)))
        stands.add(hit);
    // A strict name stands before a word of STRICT_WORDS, or listed next to one that stands (which may be strict
    // itself: "Chef, Puppet or Ansible"), so this repeats until nothing more stands.
    const strict = hits.filter((h) => h.entry.match === 'strict');
    const gaps: Gaps = { sentence };
    for (let grew = strict.length > 0; grew;) {
      grew = false;
      for (const hit of strict) {
        if (stands.has(hit) || !(STRICT_WORDS.has(lower[hit.end] ?? '') || listedWithStanding(hit, hits, stands, gaps))) continue;
        stands.add(hit);
        grew = true;
      }
    }
    for (const hit of hits) if (stands.has(hit)) found.set(hit.entry.name, hit.entry);
  }
}

function hasContext(hit: Hit, hits: Hit[], lower: string[]): boolean {
  if (CONTEXT_WORDS.has(lower[hit.at - 1] ?? '') || CONTEXT_WORDS.has(lower[hit.end] ?? '')) return true;
  const near = hits.filter((h) => h.entry.name !== hit.entry.name && Math.abs(h.at - hit.at) <= CONTEXT_WINDOW);
  // A distinctive name nearby, or a list of at least three plain ones.
  return near.some((h) => h.entry.match === 'any' || h.entry.match === 'exact') || new Set(near.map((h) => h.entry.name)).size >= 2;
}

/** A sentence, and where each of its words lies (read only when a strict name needs the gaps between words). */
interface Gaps {
  sentence: string;
  spans?: [number, number][];
}

/** The text between two hits of a sentence. */
function gap(gaps: Gaps, a: Hit, b: Hit): string {
  gaps.spans ??= [...gaps.sentence.matchAll(WORD)].map((t): [number, number] => [t.index, t.index + t[0].length]);
  return gaps.sentence.slice(gaps.spans[a.end - 1][1], gaps.spans[b.at][0]);
}

/** Whether the hit before or after `hit` stands and only list separators lie between them. */
function listedWithStanding(hit: Hit, hits: Hit[], stands: Set<Hit>, gaps: Gaps): boolean {
  const i = hits.indexOf(hit);
  // Words in the gap (other than "and", "or") mean the two are no list.
  const before = hits[i - 1];
  const after = hits[i + 1];
  return (
    (before !== undefined && stands.has(before) && LIST_GAP.test(gap(gaps, before, hit))) ||
    (after !== undefined && stands.has(after) && LIST_GAP.test(gap(gaps, hit, after)))
  );
}

/** Bumped when a change to the rules above changes what a text names, so stored matches are made again. */
const RULES_VERSION = 1;

let loaded: { dictionary: Dictionary; fingerprint: string } | undefined;

function load(): { dictionary: Dictionary; fingerprint: string } {
  if (loaded) return loaded;
  const text = readFileSync(new URL('./technologies.json', import.meta.url), 'utf8');
  const fingerprint = `${RULES_VERSION}:${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
  return (loaded = { dictionary: new Dictionary(JSON.parse(text) as DictionaryFile), fingerprint });
}

/** The maintained dictionary (read once). */
export function technologies(): Dictionary {
  return load().dictionary;
}

/** Which dictionary and rules stored matches were made with (job_technologies_state): they are current while it is this. */
export function dictionaryFingerprint(): string {
  return load().fingerprint;
}

/** The names of the technologies a listing names: its title and description, as technographics read them. */
export function listingTechnologies(title: string, description: string): string[] {
  return technologies()
    .namedIn(`${title}\n${description}`)
    .map((t) => t.name);
}
