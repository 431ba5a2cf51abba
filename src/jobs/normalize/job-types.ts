// Job type ids of src/lookups/data.ts JOB_TYPES: 1 Full Time, 2 Part Time, 3 Temporary, 4 Internship,
// 5 Freelance, 6 Contract. Sources write them in many ways ("FULL_TIME", "Full-time", "Festanstellung").
const RULES: [RegExp, number][] = [
  [/\b(full[\s_-]?time|fulltime|permanent|festanstellung|vollzeit|cdi|regular|tempo integral)\b/i, 1],
  [/\b(part[\s_-]?time|parttime|teilzeit|mini[- ]?job|temps partiel)\b/i, 2],
  [/\b(temporary|temp|seasonal|befristet|interim)\b/i, 3],
  [/\b(intern|internship|interns|praktikum|werkstudent|working student|stage|trainee|apprentice(ship)?|ausbildung|co[- ]?op)\b/i, 4],
  [/\b(freelance|freelancer|freiberuflich|self[- ]employed)\b/i, 5],
  [/\b(contract|contractor|contract[- ]to[- ]hire|fixed[- ]term|cdd)\b/i, 6],
];

/** Types a title adds even when the source gives its own: a "(12m Fixed Term Contract)" is a contract, whatever the field says. */
const TITLE_ADDS = new Set([3, 4, 5, 6]);

/**
 * Type ids named by the source's employment-type fields, plus the temporary, internship, freelance
 * and contract words of the title (and, when the source gives none, the title's part-time words too).
 */
export function detectJobTypes(typeTexts: (string | null | undefined)[], title?: string | null): number[] {
  const ids = new Set<number>();
  for (const text of typeTexts) {
    if (!text) continue;
    for (const [pattern, id] of RULES) if (pattern.test(text.replace(/_/g, ' '))) ids.add(id);
  }
  if (title) {
    const sourceGaveTypes = ids.size > 0;
    for (const [pattern, id] of RULES) {
      if (id !== 1 && (TITLE_ADDS.has(id) || !sourceGaveTypes) && pattern.test(title)) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}
