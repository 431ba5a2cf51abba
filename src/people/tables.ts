// Kysely table types of the people domain. Conventions: see docs/architecture.md.
// A person is one row of `people` (names and profile) plus child rows for positions, emails and
// phones. Every child row records the source that reported it and when it was last seen; the
// scalar facts of `people` record theirs in `field_sources` (JSON).
import type { Generated, Selectable } from 'kysely';

export interface PersonTable {
  id: Generated<number>;
  /** Display name. */
  full_name: string;
  first_name: string | null;
  middle_name: string | null;
  /** With its particles ("de la Cruz"). */
  last_name: string | null;
  name_prefix: string | null;
  name_suffix: string | null;
  nickname: string | null;
  /** Professional-network public identifier (normalizeProfileId), unique when set. */
  profile_id: string | null;
  /** The profile URL as the source wrote it. */
  profile_url: string | null;
  /** `<source>:<the source's own id>`: the identity of a person without a profile across re-imports. */
  external_key: string | null;
  /** JSON object: fact name → {source, seen_at}. */
  field_sources: string;
  created_at: number;
  updated_at: number;
}

export interface PersonPositionTable {
  id: Generated<number>;
  person_id: number;
  company_id: number;
  title: string;
  /** analyzeTitle(title).normalized: an exact-title tie-break between holders. */
  title_normalized: string;
  /** +1 senior, -1 junior, 0 (analyzeTitle(title).modifier). */
  seniority_modifier: number;
  is_current: number;
  started_at: number | null;
  ended_at: number | null;
  /** company_id|title_normalized|started_at: the position's identity within the person, for updates. */
  position_key: string;
  source: string;
  seen_at: number;
}

/** The canonical roles of current positions (src/people/titles.ts): what the role finder looks up. */
export interface PersonRoleTable {
  position_id: number;
  person_id: number;
  company_id: number;
  role_key: string;
  /** The role's function words, for queries that name only a function. */
  fn: string;
  rank: number;
  /** The job function label of `fn` (jobFunctionLabel, src/people/people-search.ts), null when it has none. */
  job_function: string | null;
  /** The role key before ':' with its qualifier ("vp", "deputy chief"): what a level filter names. */
  job_level: string;
  /** The company's facts a search filters on, copied from companies (migration 0027; a trigger keeps them equal). */
  company_country: string | null;
  company_industry: string | null;
  company_size: string | null;
  /** sampleKeyOf(person_id) (src/people/people-search.ts): which people the total_count estimate samples. */
  sample_key: number;
}

export interface PersonEmailTable {
  id: Generated<number>;
  person_id: number;
  email: string;
  /** 'work' or 'personal'. */
  kind: string;
  domain: string;
  /** How we have it: 'source' (an import reported it) or 'derived' (built from the name and checked). */
  obtained_by: string;
  /** Last email_status from a validation (ours or the source's), null when never verified. */
  status: string | null;
  verified_at: number | null;
  source: string;
  seen_at: number;
}

export interface PersonPhoneTable {
  id: Generated<number>;
  person_id: number;
  /** E.164, "+14155552671". */
  e164: string;
  /** mobile, possibly_mobile, fixed, other (src/people/phones.ts). */
  type: string;
  country: string | null;
  source: string;
  seen_at: number;
}

export interface PeopleTables {
  people: PersonTable;
  person_positions: PersonPositionTable;
  person_roles: PersonRoleTable;
  person_emails: PersonEmailTable;
  person_phones: PersonPhoneTable;
}

export type PersonRow = Selectable<PersonTable>;
export type PersonEmailRow = Selectable<PersonEmailTable>;
export type PersonPhoneRow = Selectable<PersonPhoneTable>;
