// Person names: split a full name into parts (wrapping `parse-full-name`, which knows titles,
// particles such as "de la" / "van", suffixes and "Last, First"), and fold name parts into the
// ASCII tokens that email local parts are built from.
import anyAscii from 'any-ascii';
import { parseFullName } from 'parse-full-name';

export interface PersonName {
  /** The display name: the source's full name, or first and last joined. */
  full: string;
  prefix: string | null;
  first: string | null;
  middle: string | null;
  /** With its particles: "de la Cruz", "van Gogh". */
  last: string | null;
  suffix: string | null;
  nickname: string | null;
}

const blankToNull = (s: string | undefined | null): string | null => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
};

/**
 * Builds a name from what a source gives: a full name, separate first and last names, or both
 * (explicit parts win; the full name fills what is missing). Null when there is no name at all.
 */
export function parsePersonName(input: { full?: string | null; first?: string | null; last?: string | null }): PersonName | null {
  const full = blankToNull(input.full);
  const first = blankToNull(input.first);
  const last = blankToNull(input.last);
  if (!full && !first && !last) return null;
  const parsed = full ? parseFullName(full, 'all', 0, 0, 1) : null;
  let parsedFirst = blankToNull(parsed?.first);
  let parsedLast = blankToNull(parsed?.last);
  // A single word is a first name to us (the library calls it a last name).
  if (parsed && !parsedFirst && parsedLast && !parsedLast.includes(' ') && !parsed.title) {
    parsedFirst = parsedLast;
    parsedLast = null;
  }
  const name: PersonName = {
    full: '',
    prefix: blankToNull(parsed?.title),
    first: first ?? parsedFirst,
    middle: first || last ? null : blankToNull(parsed?.middle),
    last: last ?? parsedLast,
    suffix: blankToNull(parsed?.suffix),
    nickname: blankToNull(parsed?.nick),
  };
  name.full = full ?? [name.first, name.last].filter(Boolean).join(' ');
  return name;
}

/** Lower-case ASCII letters and digits only: "José" → "jose", "O'Brien" → "obrien", "Anne-Marie" → "annemarie". */
export function foldNamePart(part: string): string {
  // Any script to its usual ASCII spelling (Дмитрий → dmitriy, Þórsson → thorsson, ß → ss): mail
  // domains whose addresses follow a name pattern write them in ASCII.
  return anyAscii(part)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}
