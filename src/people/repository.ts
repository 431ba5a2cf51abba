// Storage of people: upserts from importers and the indexed reads behind the finders.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PreparedPerson } from './input.ts';
import type { PersonEmailRow, PersonPhoneRow, PersonRow } from './tables.ts';

type Executor = Kysely<Database>;

export interface SaveResult {
  id: number;
  created: boolean;
}

/** One current holder of a role, as the role finder ranks them. */
export interface RoleHolderRow {
  person_id: number;
  rank: number;
  role_key: string;
  title: string;
  title_normalized: string;
  seniority_modifier: number;
  started_at: number | null;
  seen_at: number;
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  profile_id: string | null;
}

/** A work address at a domain with its holder's name: evidence of the domain's email pattern. */
export interface DomainEmailSample {
  email: string;
  first_name: string | null;
  last_name: string | null;
}

export interface CurrentCompanyRow {
  company_id: number;
  domain: string | null;
  started_at: number | null;
  seen_at: number;
}

/** Cap on rows read per lookup: bounds the work of a lookup at a company with thousands of people. */
const HOLDER_LIMIT = 200;

export class PeopleRepository {
  constructor(readonly db: Executor) {}

  /**
   * Creates or updates one person and their facts. `companyIds[i]` is the company of
   * `person.positions[i]` (null: the position is skipped). Run it inside a transaction (`db` may be one).
   */
  async save(db: Executor, person: PreparedPerson, companyIds: (number | null)[], source: string, seenAt: number): Promise<SaveResult> {
    const externalKey = person.externalId ? `${source}:${person.externalId}` : null;
    const existing = await this.findIdentity(db, person, externalKey);
    const n = person.name;
    const nameFacts = {
      full_name: n.full,
      first_name: n.first,
      middle_name: n.middle,
      last_name: n.last,
      name_prefix: n.prefix,
      name_suffix: n.suffix,
      nickname: n.nickname,
    };
    const provenance = { source, seen_at: seenAt };
    let id: number;
    let created = false;
    if (existing) {
      id = existing.id;
      const sources = JSON.parse(existing.field_sources || '{}') as Record<string, unknown>;
      sources.name = provenance;
      if (person.profileId) sources.profile = provenance;
      await db
        .updateTable('people')
        .set({
          ...nameFacts,
          ...(person.profileId && !existing.profile_id ? { profile_id: person.profileId, profile_url: person.profileUrl } : {}),
          ...(externalKey && !existing.external_key ? { external_key: externalKey } : {}),
          field_sources: JSON.stringify(sources),
          updated_at: seenAt,
        })
        .where('id', '=', id)
        .execute();
    } else {
      const sources: Record<string, unknown> = { name: provenance };
      if (person.profileId) sources.profile = provenance;
      const row = await db
        .insertInto('people')
        .values({
          ...nameFacts,
          profile_id: person.profileId,
          profile_url: person.profileId ? person.profileUrl : null,
          external_key: externalKey,
          field_sources: JSON.stringify(sources),
          created_at: seenAt,
          updated_at: seenAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(row.id);
      created = true;
    }

    for (let i = 0; i < person.positions.length; i++) {
      const companyId = companyIds[i];
      if (companyId === null || companyId === undefined) continue;
      const p = person.positions[i]!;
      const positionKey = `${companyId}|${p.titleNormalized}|${p.startedAt ?? ''}`;
      const row = await db
        .insertInto('person_positions')
        .values({
          person_id: id,
          company_id: companyId,
          title: p.title,
          title_normalized: p.titleNormalized,
          seniority_modifier: p.modifier,
          is_current: p.isCurrent ? 1 : 0,
          started_at: p.startedAt,
          ended_at: p.endedAt,
          position_key: positionKey,
          source,
          seen_at: seenAt,
        })
        .onConflict((oc) =>
          oc.columns(['person_id', 'position_key']).doUpdateSet((eb) => ({
            title: eb.ref('excluded.title'),
            seniority_modifier: eb.ref('excluded.seniority_modifier'),
            is_current: eb.ref('excluded.is_current'),
            ended_at: eb.ref('excluded.ended_at'),
            source: eb.ref('excluded.source'),
            seen_at: eb.ref('excluded.seen_at'),
          })),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      const positionId = Number(row.id);
      if (!created) await db.deleteFrom('person_roles').where('position_id', '=', positionId).execute();
      if (p.isCurrent && p.roles.length) {
        await db
          .insertInto('person_roles')
          .values(p.roles.map((r) => ({ position_id: positionId, person_id: id, company_id: companyId, role_key: r.key, fn: r.fn, rank: r.rank })))
          .execute();
      }
    }

    for (const e of person.emails) {
      await db
        .insertInto('person_emails')
        .values({
          person_id: id,
          email: e.email,
          kind: e.kind,
          domain: e.domain,
          obtained_by: 'source',
          status: e.status,
          verified_at: e.status ? (e.verifiedAt ?? seenAt) : null,
          source,
          seen_at: seenAt,
        })
        .onConflict((oc) =>
          oc.columns(['person_id', 'email']).doUpdateSet((eb) => ({
            kind: eb.ref('excluded.kind'),
            status: sql`coalesce(excluded.status, person_emails.status)`,
            verified_at: sql`coalesce(excluded.verified_at, person_emails.verified_at)`,
            source: eb.ref('excluded.source'),
            seen_at: eb.ref('excluded.seen_at'),
          })),
        )
        .execute();
    }

    for (const ph of person.phones) {
      await db
        .insertInto('person_phones')
        .values({ person_id: id, e164: ph.e164, type: ph.type, country: ph.country, source, seen_at: seenAt })
        .onConflict((oc) =>
          oc.columns(['person_id', 'e164']).doUpdateSet((eb) => ({
            type: eb.ref('excluded.type'),
            country: eb.ref('excluded.country'),
            source: eb.ref('excluded.source'),
            seen_at: eb.ref('excluded.seen_at'),
          })),
        )
        .execute();
    }
    return { id, created };
  }

  /** The stored person a record is about: by profile, else by the source's id, else by an email and the same name. */
  private async findIdentity(db: Executor, person: PreparedPerson, externalKey: string | null): Promise<PersonRow | undefined> {
    if (person.profileId) {
      const byProfile = await db.selectFrom('people').selectAll().where('profile_id', '=', person.profileId).executeTakeFirst();
      if (byProfile) return byProfile;
    }
    if (externalKey) {
      const byKey = await db.selectFrom('people').selectAll().where('external_key', '=', externalKey).executeTakeFirst();
      if (byKey) return byKey;
    }
    if (!person.profileId && !externalKey && person.emails.length) {
      const rows = await db
        .selectFrom('person_emails')
        .innerJoin('people', 'people.id', 'person_emails.person_id')
        .selectAll('people')
        .where(
          'person_emails.email',
          'in',
          person.emails.map((e) => e.email),
        )
        .execute();
      const wanted = person.name.full.toLowerCase();
      return rows.find((r) => r.full_name.toLowerCase() === wanted);
    }
    return undefined;
  }

  async findByProfileId(profileId: string): Promise<PersonRow | undefined> {
    return this.db.selectFrom('people').selectAll().where('profile_id', '=', profileId).executeTakeFirst();
  }

  async getById(id: number): Promise<PersonRow | undefined> {
    return this.db.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** People holding an address (of the given kind when set), most recently seen first. */
  async personIdsByEmail(email: string, kind?: 'work' | 'personal'): Promise<number[]> {
    let q = this.db.selectFrom('person_emails').select('person_id').where('email', '=', email.toLowerCase());
    if (kind) q = q.where('kind', '=', kind);
    const rows = await q.orderBy('seen_at', 'desc').limit(20).execute();
    return [...new Set(rows.map((r) => Number(r.person_id)))];
  }

  private holderQuery() {
    return this.db
      .selectFrom('person_roles as r')
      .innerJoin('person_positions as pos', 'pos.id', 'r.position_id')
      .innerJoin('people as p', 'p.id', 'r.person_id')
      .select([
        'r.person_id',
        'r.rank',
        'r.role_key',
        'pos.title',
        'pos.title_normalized',
        'pos.seniority_modifier',
        'pos.started_at',
        'pos.seen_at',
        'p.full_name',
        'p.first_name',
        'p.last_name',
        'p.profile_id',
      ]);
  }

  /** Current holders at a company of any of the role keys (index person_roles_company_role). */
  async holdersByRoleKeys(companyId: number, roleKeys: string[]): Promise<RoleHolderRow[]> {
    if (!roleKeys.length) return [];
    const rows = await this.holderQuery().where('r.company_id', '=', companyId).where('r.role_key', 'in', roleKeys).limit(HOLDER_LIMIT).execute();
    return rows as RoleHolderRow[];
  }

  /** Current holders at a company of a function at any level, most senior first (index person_roles_company_fn). */
  async holdersByFunction(companyId: number, fn: string): Promise<RoleHolderRow[]> {
    const rows = await this.holderQuery()
      .where('r.company_id', '=', companyId)
      .where('r.fn', '=', fn)
      .orderBy('r.rank', 'desc')
      .limit(HOLDER_LIMIT)
      .execute();
    return rows as RoleHolderRow[];
  }

  async phonesOf(personIds: number[]): Promise<PersonPhoneRow[]> {
    if (!personIds.length) return [];
    return this.db.selectFrom('person_phones').selectAll().where('person_id', 'in', personIds).execute();
  }

  async emailsOf(personId: number): Promise<PersonEmailRow[]> {
    return this.db.selectFrom('person_emails').selectAll().where('person_id', '=', personId).execute();
  }

  /** Current positions of a person with their company's primary domain, latest first. */
  async currentCompanies(personId: number): Promise<CurrentCompanyRow[]> {
    const rows = await this.db
      .selectFrom('person_positions as pos')
      .innerJoin('companies as c', 'c.id', 'pos.company_id')
      .select(['pos.company_id', 'c.domain', 'pos.started_at', 'pos.seen_at'])
      .where('pos.person_id', '=', personId)
      .where('pos.is_current', '=', 1)
      .execute();
    return (rows as CurrentCompanyRow[]).sort((a, b) => (b.started_at ?? -Infinity) - (a.started_at ?? -Infinity) || b.seen_at - a.seen_at);
  }

  /** Known work addresses at a domain with their holders' names (for the domain's email pattern). */
  async emailSamplesAtDomain(domain: string, limit = 500): Promise<DomainEmailSample[]> {
    return this.db
      .selectFrom('person_emails as e')
      .innerJoin('people as p', 'p.id', 'e.person_id')
      .select(['e.email', 'p.first_name', 'p.last_name'])
      .where('e.domain', '=', domain)
      .where('e.kind', '=', 'work')
      .where((eb) => eb.or([eb('e.status', 'is', null), eb('e.status', 'in', ['valid', 'valid_catch_all'])]))
      .limit(limit)
      .execute();
  }

  /** Records an address we found (or re-checked) for a person. */
  async recordEmail(personId: number, email: string, kind: 'work' | 'personal', domain: string, status: string, obtainedBy: string, at: number): Promise<void> {
    await this.db
      .insertInto('person_emails')
      .values({ person_id: personId, email, kind, domain, obtained_by: obtainedBy, status, verified_at: at, source: 'leadbase', seen_at: at })
      .onConflict((oc) => oc.columns(['person_id', 'email']).doUpdateSet({ status, verified_at: at, seen_at: at }))
      .execute();
  }
}
