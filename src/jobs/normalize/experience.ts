import type { ExperienceLevel } from '../../contract/jobs.ts';

// The title decides when it names a level; the description's "N+ years" decides otherwise.
const EXECUTIVE =
  /\b(chief|ceo|cto|cfo|coo|cmo|cio|ciso|cpo|cro|president|vice[- ]president|vp|svp|evp|head of|managing director|general manager|executive director|partner|founder|gesch[aä]ftsf[uü]hrer)\b/i;
// Words that name a level outrank words that name a role: a "Junior Sales Manager" is entry level,
// a "Senior Associate" senior. Role words decide only when no level word is there.
const SENIOR_LEVEL = /\b(senior|sr|principal|staff|expert|distinguished|iii|iv)\b/i;
const ENTRY_LEVEL =
  /\b(junior|jr|entry[- ]level|entry|graduate|grad|intern|internship|trainee|apprentice|werkstudent|working student|new grad)\b/i;
const SENIOR_ROLE = /\b(lead|architect|director|manager|supervisor)\b/i;
const ENTRY_ROLE = /\b(associate|assistant|i)\b/i;
const SOURCE_LEVELS: [RegExp, ExperienceLevel][] = [
  // LinkedIn's "Mid-Senior level" spans mid and senior: it says mid, not senior.
  [/^mid[- ]senior/i, 'mid'],
  [/executive|director|c[- ]level|vp/i, 'executive'],
  [/senior|lead|expert|principal/i, 'senior'],
  [/entry|junior|intern|student|graduate|no experience/i, 'entry'],
  [/mid|associate|experienced|professional|intermediate/i, 'mid'],
];

function yearsAsked(description: string): number | null {
  const m = description.match(/(\d{1,2})\s*\+?\s*(?:-\s*\d{1,2}\s*)?(?:years|yrs|jahre)/i);
  return m ? Number(m[1]) : null;
}

/**
 * entry / mid / senior / executive: the title when it names a level ("Senior", "Head of", "Junior"),
 * else the source's own level field, else a role word of the title ("Manager", "Associate"), else
 * the years of experience the description asks for, else mid.
 */
export function detectExperienceLevel(title: string, description = '', sourceLevel?: string | null): ExperienceLevel {
  const t = title.replace(/[()[\],/|]/g, ' ');
  if (EXECUTIVE.test(t)) return 'executive';
  if (SENIOR_LEVEL.test(t)) return 'senior';
  if (ENTRY_LEVEL.test(t)) return 'entry';
  // The source's own level field is structured: it outranks what a role word suggests.
  if (sourceLevel) for (const [pattern, level] of SOURCE_LEVELS) if (pattern.test(sourceLevel)) return level;
  if (SENIOR_ROLE.test(t)) return 'senior';
  if (ENTRY_ROLE.test(t)) return 'entry';
  const years = yearsAsked(description);
  if (years !== null) {
    if (years >= 10) return 'executive';
    if (years >= 5) return 'senior';
    if (years <= 1) return 'entry';
  }
  return 'mid';
}
