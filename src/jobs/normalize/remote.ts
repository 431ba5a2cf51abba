// Remote detection when the source has no flag of its own: the location and the title speak first;
// the description only when it states it plainly (a passing "remote meetings" must not count).
const LOCATION_OR_TITLE =
  /\b(remote|anywhere|work from home|wfh|home[- ]?office|home[- ]based|distributed|telecommute|remoto|teletrabajo|t[ée]l[ée]travail)\b/i;
const DESCRIPTION =
  /\b(this (is a|role is|position is) (fully |100% )?remote|fully remote|100% remote|remote[- ]first|work from anywhere|remote position|remote role|remote-friendly|can be performed remotely|work remotely from)\b/i;
const REMOTE_CLUE = /remote|anywhere/i;
const NOT_REMOTE = /\b(not (a )?remote|no remote|non[- ]remote|on[- ]?site only|this role is not remote)\b/i;

export function detectRemote(opts: {
  flag?: boolean | null;
  location?: string | null;
  title?: string | null;
  description?: string | null;
}): boolean {
  if (typeof opts.flag === 'boolean') return opts.flag;
  const head = `${opts.title ?? ''} ${opts.location ?? ''}`;
  if (NOT_REMOTE.test(head)) return false;
  if (LOCATION_OR_TITLE.test(head)) return true;
  const description = opts.description ?? '';
  // Every wording of DESCRIPTION has "remote" or "anywhere" in it: this short pattern settles most ads faster.
  return REMOTE_CLUE.test(description) && DESCRIPTION.test(description) && !NOT_REMOTE.test(description);
}
