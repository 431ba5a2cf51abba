// Mobile finder: a person's mobile number from their profile or one of their addresses.
import type { PeopleRepository } from './repository.ts';
import type { PersonPhoneRow } from './tables.ts';
import { normalizeProfileId } from './profile.ts';
import { isMobileRange } from './phones.ts';

export interface MobileQuery {
  profile_url?: string | null;
  work_email?: string | null;
  personal_email?: string | null;
}

export interface MobileMatch {
  personId: number;
  profileId: string | null;
  phone: PersonPhoneRow;
}

const PREFERENCE: Record<string, number> = { mobile: 2, possibly_mobile: 1 };

/**
 * The best mobile: a sure mobile before a possible one, then the most recently seen. A number is
 * classified again here, so a row stored as a mobile whose range is not a mobile range (an older
 * import, a source's word) is never served, nor charged for.
 */
export function bestMobile(phones: PersonPhoneRow[]): PersonPhoneRow | null {
  const mobiles = phones.filter((p) => PREFERENCE[p.type] && isMobileRange(p.e164));
  mobiles.sort((a, b) => PREFERENCE[b.type] - PREFERENCE[a.type] || b.seen_at - a.seen_at || a.id - b.id);
  return mobiles[0] ?? null;
}

/** Looks the person up by profile, then work email, then personal email; the first person with a mobile answers. */
export async function findMobile(repository: PeopleRepository, query: MobileQuery): Promise<MobileMatch | null> {
  const tried = new Set<number>();
  const candidates: { personId: number; profileId: string | null }[] = [];
  const profileId = query.profile_url ? normalizeProfileId(query.profile_url) : null;
  if (profileId) {
    const person = await repository.findByProfileId(profileId);
    if (person) candidates.push({ personId: person.id, profileId });
  }
  for (const [email, kind] of [
    [query.work_email, 'work'],
    [query.personal_email, 'personal'],
  ] as const) {
    const address = email?.trim().toLowerCase();
    if (!address) continue;
    let ids = await repository.personIdsByEmail(address, kind);
    if (!ids.length) ids = await repository.personIdsByEmail(address);
    for (const id of ids) candidates.push({ personId: id, profileId: null });
  }
  for (const c of candidates) {
    if (tried.has(c.personId)) continue;
    tried.add(c.personId);
    const phone = bestMobile(await repository.phonesOf([c.personId]));
    if (!phone) continue;
    const profile = c.profileId ?? (await repository.getById(c.personId))?.profile_id ?? null;
    return { personId: c.personId, profileId: profile, phone };
  }
  return null;
}
