// A security clearance requirement stated in the text (US, UK and allied wordings).
const CLEARANCE =
  /\b(security clearance|clearance required|active clearance|(top secret|ts\/sci|ts-sci|secret|public trust|dod|dv|sc|nv1|nv2|baseline)( security)? clearance|clearance (level|eligib\w*)|must (hold|possess|be able to obtain) (an? )?(active )?(us |u\.s\. )?(government |security )?clearance|ts\/sci|polygraph|sc cleared|dv cleared|eligible for (sc|dv) clearance)\b/i;
const NO_CLEARANCE = /\b(no (security )?clearance (is )?required|clearance (is )?not required)\b/i;

// Every wording of CLEARANCE has one of these in it: this short pattern settles most ads faster.
const CLUE = /clearance|ts\/sci|polygraph|cleared/i;

export function detectClearance(...texts: (string | null | undefined)[]): boolean {
  const text = texts.filter(Boolean).join('\n');
  return CLUE.test(text) && CLEARANCE.test(text) && !NO_CLEARANCE.test(text);
}
