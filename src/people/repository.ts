// Storage of people: upserts from importers and the indexed reads behind the finders.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PreparedPerson } from './input.ts';
import type { PersonEmailRow, PersonPhoneRow, PersonRow } from './tables.ts';
import { chunk } from '../db/chunks.ts';
import { sampleKeyOf, searchFieldsOf } from './people-search.ts';

type Executor = Kysely<Database>;

/** Rows per multi-row statement built through Kysely: larger statements cost more to build than to run (see db/bulk.ts). */
const CHUNK = 500;

/** A table of a person's facts written by upsert: what identifies a row, and what a later report changes. */
interface PersonChildTable {
  table: 'person_positions' | 'person_emails' | 'person_phones';
  /** The unique key a report's row is matched on. */
  conflict: readonly string[];
  /** Columns a later report replaces. */
  replace: readonly string[];
  /** Columns a later report sets only when it has a value (a status a source knows is kept when another does not). */
  fillIn?: readonly string[];
}

const POSITIONS: PersonChildTable = {
  table: 'person_positions',
  conflict: ['person_id', 'position_key'],
  replace: ['title', 'seniority_modifier', 'is_current', 'ended_at', 'source', 'seen_at'],
};
const EMAILS: PersonChildTable = {
  table: 'person_emails',
  conflict: ['person_id', 'email'],
  replace: ['kind', 'source', 'seen_at'],
  fillIn: ['status', 'verified_at'],
};
const PHONES: PersonChildTable = {
  table: 'person_phones',
  conflict: ['person_id', 'e164'],
  replace: ['type', 'country', 'source', 'seen_at'],
};

/** Upserts `rows` into a person child table, CHUNK rows per statement; returns the `returning` columns of every row. */
async function upsertChildRows<R = never>(
  db: Executor,
  child: PersonChildTable,
  rows: Record<string, unknown>[],
  returning: readonly string[] = [],
): Promise<R[]> {
  const untyped = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const set = Object.fromEntries([
    ...child.replace.map((c) => [c, sql.ref(`excluded.${c}`)]),
    ...(child.fillIn ?? []).map((c) => [c, sql`coalesce(${sql.ref(`excluded.${c}`)}, ${sql.ref(`${child.table}.${c}`)})`]),
  ]);
  const out: R[] = [];
  for (const part of chunk(rows, CHUNK)) {
    const query = untyped
      .insertInto(child.table)
      .values(part)
      .onConflict((oc) => oc.columns([...child.conflict]).doUpdateSet(set));
    if (returning.length) out.push(...((await query.returning([...returning]).execute()) as R[]));
    else await query.execute();
  }
  return out;
}

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

/** A person with a current position at a company (employee finder). */
export interface EmployeeRow {
  person_id: number;
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  profile_id: string | null;
  title: string;
}

/** A work address at a domain with its holder's name: evidence of the domain's email pattern. */
export interface DomainEmailSample {
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** One position of a person with its company's stable facts (profile search, job change). */
export interface PositionHistoryRow {
  company_id: number;
  title: string;
  is_current: number;
  started_at: number | null;
  ended_at: number | null;
  company_name: string;
  domain: string | null;
  website: string | null;
  industry: string | null;
  employee_count: number | null;
}

export interface CurrentCompanyRow {
  company_id: number;
  domain: string | null;
  started_at: number | null;
  seen_at: number;
}

function nameFactsOf(person: PreparedPerson) {
  const n = person.name;
  return {
    full_name: n.full,
    first_name: n.first,
    middle_name: n.middle,
    last_name: n.last,
    name_prefix: n.prefix,
    name_suffix: n.suffix,
    nickname: n.nickname,
  };
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
    return (await this.saveMany(db, [{ person, companyIds }], source, seenAt))[0];
  }

  /**
   * Creates or updates many people in a few multi-row statements (the importers' path; `save` does
   * one). Results are in input order. Records about the same person in one call are applied one
   * after the other, in order. Run it inside a transaction.
   */
  async saveMany(
    db: Executor,
    items: { person: PreparedPerson; companyIds: (number | null)[] }[],
    source: string,
    seenAt: number,
  ): Promise<SaveResult[]> {
    const results: SaveResult[] = new Array(items.length);
    let pending = items.map((item, index) => ({
      ...item,
      index,
      externalKey: item.person.externalId ? `${source}:${item.person.externalId}` : null,
    }));
    while (pending.length) {
      // One round holds at most one record per identity; repeats wait for the next round.
      const round: typeof pending = [];
      const later: typeof pending = [];
      const identities = new Set<string>();
      for (const item of pending) {
        const keys = [
          item.person.profileId && `p:${item.person.profileId}`,
          item.externalKey && `x:${item.externalKey}`,
          ...item.person.emails.map((e) => `e:${e.email}`),
        ].filter(Boolean) as string[];
        if (keys.some((k) => identities.has(k))) later.push(item);
        else {
          keys.forEach((k) => identities.add(k));
          round.push(item);
        }
      }
      await this.saveRound(db, round, source, seenAt, results);
      pending = later;
    }
    return results;
  }

  private async saveRound(
    db: Executor,
    items: { person: PreparedPerson; companyIds: (number | null)[]; index: number; externalKey: string | null }[],
    source: string,
    seenAt: number,
    results: SaveResult[],
  ): Promise<void> {
    // Identities: by profile and by the source's id in two queries; by email only for records with neither.
    const byProfile = new Map<string, PersonRow>();
    const byKey = new Map<string, PersonRow>();
    const profileIds = items.map((i) => i.person.profileId).filter((x): x is string => !!x);
    const externalKeys = items.map((i) => i.externalKey).filter((x): x is string => !!x);
    for (const part of chunk(profileIds, CHUNK)) {
      for (const row of await db.selectFrom('people').selectAll().where('profile_id', 'in', part).execute())
        byProfile.set(row.profile_id!, row);
    }
    for (const part of chunk(externalKeys, CHUNK)) {
      for (const row of await db.selectFrom('people').selectAll().where('external_key', 'in', part).execute())
        byKey.set(row.external_key!, row);
    }
    const existing = new Map<number, PersonRow>();
    const fresh: typeof items = [];
    for (const item of items) {
      const p = item.person;
      let row = (p.profileId && byProfile.get(p.profileId)) || (item.externalKey && byKey.get(item.externalKey)) || undefined;
      if (!row && !p.profileId && !item.externalKey) row = await this.findIdentity(db, p, null);
      if (row) {
        existing.set(item.index, row);
        results[item.index] = { id: row.id, created: false };
      } else fresh.push(item);
    }

    // Existing people: their names and provenance, one update each.
    for (const item of items) {
      const row = existing.get(item.index);
      if (!row) continue;
      const p = item.person;
      const sources = JSON.parse(row.field_sources || '{}') as Record<string, unknown>;
      sources.name = { source, seen_at: seenAt };
      if (p.profileId) sources.profile = { source, seen_at: seenAt };
      await db
        .updateTable('people')
        .set({
          ...nameFactsOf(p),
          ...(p.profileId && !row.profile_id ? { profile_id: p.profileId, profile_url: p.profileUrl } : {}),
          ...(item.externalKey && !row.external_key ? { external_key: item.externalKey } : {}),
          field_sources: JSON.stringify(sources),
          updated_at: seenAt,
        })
        .where('id', '=', row.id)
        .execute();
    }

    // New people: multi-row inserts, ids matched back by profile or source id; others one by one.
    const values = (item: (typeof items)[number]) => {
      const p = item.person;
      const sources: Record<string, unknown> = { name: { source, seen_at: seenAt } };
      if (p.profileId) sources.profile = { source, seen_at: seenAt };
      return {
        ...nameFactsOf(p),
        profile_id: p.profileId,
        profile_url: p.profileId ? p.profileUrl : null,
        external_key: item.externalKey,
        field_sources: JSON.stringify(sources),
        created_at: seenAt,
        updated_at: seenAt,
      };
    };
    const keyed = fresh.filter((i) => i.person.profileId || i.externalKey);
    for (const part of chunk(keyed, CHUNK)) {
      const rows = await db.insertInto('people').values(part.map(values)).returning(['id', 'profile_id', 'external_key']).execute();
      const ids = new Map<string, number>();
      for (const r of rows) ids.set(r.profile_id ? `p:${r.profile_id}` : `x:${r.external_key}`, Number(r.id));
      for (const item of part) {
        const id = ids.get(item.person.profileId ? `p:${item.person.profileId}` : `x:${item.externalKey}`);
        if (id === undefined) throw new Error('inserted person not returned');
        results[item.index] = { id, created: true };
      }
    }
    for (const item of fresh.filter((i) => !i.person.profileId && !i.externalKey)) {
      const row = await db.insertInto('people').values(values(item)).returning('id').executeTakeFirstOrThrow();
      results[item.index] = { id: Number(row.id), created: true };
    }

    // Positions (upserted), then the roles of the current ones.
    type PositionValues = {
      person_id: number;
      company_id: number;
      title: string;
      title_normalized: string;
      seniority_modifier: number;
      is_current: number;
      started_at: number | null;
      ended_at: number | null;
      position_key: string;
      source: string;
      seen_at: number;
    };
    const positions: { values: PositionValues; roles: PreparedPerson['positions'][number]['roles']; replaced: boolean }[] = [];
    for (const item of items) {
      const { id, created } = results[item.index];
      const seenKeys = new Set<string>();
      item.person.positions.forEach((p, i) => {
        const companyId = item.companyIds[i];
        if (companyId === null || companyId === undefined) return;
        const positionKey = `${companyId}|${p.titleNormalized}|${p.startedAt ?? ''}`;
        if (seenKeys.has(positionKey)) return;
        seenKeys.add(positionKey);
        positions.push({
          values: {
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
          },
          roles: p.isCurrent ? p.roles : [],
          replaced: !created,
        });
      });
    }
    const positionIds = new Map<string, number>();
    const stored = await upsertChildRows<{ id: number; person_id: number; position_key: string }>(
      db,
      POSITIONS,
      positions.map((p) => p.values),
      ['id', 'person_id', 'position_key'],
    );
    for (const r of stored) positionIds.set(`${r.person_id}|${r.position_key}`, Number(r.id));
    const idOf = (p: (typeof positions)[number]) => positionIds.get(`${p.values.person_id}|${p.values.position_key}`)!;
    for (const part of chunk(positions.filter((p) => p.replaced).map(idOf), CHUNK)) {
      await db.deleteFrom('person_roles').where('position_id', 'in', part).execute();
    }
    // The company facts a search filters on are copied onto each role (migration 0027).
    const facts = new Map<number, { company_country: string | null; company_industry: string | null; company_size: string | null }>();
    for (const part of chunk([...new Set(positions.filter((p) => p.roles.length).map((p) => p.values.company_id))], CHUNK)) {
      const rows = await db
        .selectFrom('companies')
        .select(['id', 'country_code', 'industry', 'size_label'])
        .where('id', 'in', part)
        .execute();
      for (const c of rows)
        facts.set(Number(c.id), { company_country: c.country_code, company_industry: c.industry, company_size: c.size_label });
    }
    const roles = positions.flatMap((p) =>
      p.roles.map((r) => ({
        position_id: idOf(p),
        person_id: p.values.person_id,
        company_id: p.values.company_id,
        role_key: r.key,
        fn: r.fn,
        rank: r.rank,
        ...searchFieldsOf(r),
        ...(facts.get(p.values.company_id) ?? { company_country: null, company_industry: null, company_size: null }),
        sample_key: sampleKeyOf(p.values.person_id),
      })),
    );
    for (const part of chunk(roles, CHUNK)) await db.insertInto('person_roles').values(part).execute();

    const emails = items.flatMap((item) =>
      item.person.emails.map((e) => ({
        person_id: results[item.index].id,
        email: e.email,
        kind: e.kind,
        domain: e.domain,
        obtained_by: 'source',
        status: e.status,
        verified_at: e.status ? (e.verifiedAt ?? seenAt) : null,
        source,
        seen_at: seenAt,
      })),
    );
    await upsertChildRows(db, EMAILS, emails);
    const phones = items.flatMap((item) =>
      item.person.phones.map((ph) => ({
        person_id: results[item.index].id,
        e164: ph.e164,
        type: ph.type,
        country: ph.country,
        source,
        seen_at: seenAt,
      })),
    );
    await upsertChildRows(db, PHONES, phones);
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

  /** How many people hold a current position at a company (index person_positions_company). */
  async countCurrentEmployees(companyId: number): Promise<number> {
    const row = await this.db
      .selectFrom('person_positions')
      .select((eb) => eb.fn.count<number | string>('person_id').distinct().as('n'))
      .where('company_id', '=', companyId)
      .where('is_current', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * A page of the people holding a current position at a company: the most senior role first,
   * then by name (the person id keeps pages stable). One row per person, with one of their titles.
   */
  async currentEmployees(companyId: number, offset: number, limit: number): Promise<EmployeeRow[]> {
    const rows = await this.db
      .selectFrom('person_positions as pos')
      .innerJoin('people as p', 'p.id', 'pos.person_id')
      .leftJoin('person_roles as r', 'r.position_id', 'pos.id')
      .select(['p.id as person_id', 'p.full_name', 'p.first_name', 'p.last_name', 'p.profile_id'])
      .select((eb) => [eb.fn.min('pos.title').as('title'), eb.fn.coalesce(eb.fn.max('r.rank'), sql.lit(0)).as('rank')])
      .where('pos.company_id', '=', companyId)
      .where('pos.is_current', '=', 1)
      .groupBy(['p.id', 'p.full_name', 'p.first_name', 'p.last_name', 'p.profile_id'])
      .orderBy('rank', 'desc')
      .orderBy('p.full_name')
      .orderBy('p.id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ ...r, person_id: Number(r.person_id), title: String(r.title) }));
  }

  /** Current holders at a company of any of the role keys (index person_roles_company_role). */
  async holdersByRoleKeys(companyId: number, roleKeys: string[]): Promise<RoleHolderRow[]> {
    if (!roleKeys.length) return [];
    const rows = await this.holderQuery()
      .where('r.company_id', '=', companyId)
      .where('r.role_key', 'in', roleKeys)
      .limit(HOLDER_LIMIT)
      .execute();
    return rows;
  }

  /** Current holders at a company of a function at any level, most senior first (index person_roles_company_fn). */
  async holdersByFunction(companyId: number, fn: string): Promise<RoleHolderRow[]> {
    const rows = await this.holderQuery()
      .where('r.company_id', '=', companyId)
      .where('r.fn', '=', fn)
      .orderBy('r.rank', 'desc')
      .limit(HOLDER_LIMIT)
      .execute();
    return rows;
  }

  async phonesOf(personIds: number[]): Promise<PersonPhoneRow[]> {
    if (!personIds.length) return [];
    return this.db.selectFrom('person_phones').selectAll().where('person_id', 'in', personIds).execute();
  }

  async emailsOf(personId: number): Promise<PersonEmailRow[]> {
    return this.db.selectFrom('person_emails').selectAll().where('person_id', '=', personId).execute();
  }

  /** Every position of a person with its company (index person_positions_key leads with person_id), in no particular order. */
  async positionsOf(personId: number): Promise<PositionHistoryRow[]> {
    const rows = await this.db
      .selectFrom('person_positions as pos')
      .innerJoin('companies as c', 'c.id', 'pos.company_id')
      .select([
        'pos.company_id',
        'pos.title',
        'pos.is_current',
        'pos.started_at',
        'pos.ended_at',
        'c.name as company_name',
        'c.domain',
        'c.website',
        'c.industry',
        'c.employee_count',
      ])
      .where('pos.person_id', '=', personId)
      .execute();
    return rows.map((r) => ({
      ...r,
      company_id: Number(r.company_id),
      is_current: Number(r.is_current),
      started_at: r.started_at === null ? null : Number(r.started_at),
      ended_at: r.ended_at === null ? null : Number(r.ended_at),
      employee_count: r.employee_count === null ? null : Number(r.employee_count),
    }));
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
    return this.workEmailsAtDomain(domain)
      .where((eb) => eb.or([eb('e.status', 'is', null), eb('e.status', 'in', ['valid', 'valid_catch_all'])]))
      .limit(limit)
      .execute();
  }

  /** Work addresses at a domain with their holders' names, before any filter on their status. */
  private workEmailsAtDomain(domain: string) {
    return this.db
      .selectFrom('person_emails as e')
      .innerJoin('people as p', 'p.id', 'e.person_id')
      .select(['e.email', 'p.first_name', 'p.last_name'])
      .where('e.domain', '=', domain)
      .where('e.kind', '=', 'work');
  }

  /**
   * Work addresses at a domain verified valid (by us or the source that reported them), with their
   * holders' names, the latest verification first: the email finder serves one of these before
   * asking any mail server.
   */
  async verifiedEmailsAtDomain(domain: string, limit = 500): Promise<DomainEmailSample[]> {
    return this.workEmailsAtDomain(domain).where('e.status', '=', 'valid').orderBy('e.verified_at', 'desc').limit(limit).execute();
  }

  /** Records an address we found (or re-checked) for a person. */
  async recordEmail(
    personId: number,
    email: string,
    kind: 'work' | 'personal',
    domain: string,
    status: string,
    obtainedBy: string,
    at: number,
  ): Promise<void> {
    await this.db
      .insertInto('person_emails')
      .values({
        person_id: personId,
        email,
        kind,
        domain,
        obtained_by: obtainedBy,
        status,
        verified_at: at,
        source: 'leadbase',
        seen_at: at,
      })
      .onConflict((oc) => oc.columns(['person_id', 'email']).doUpdateSet({ status, verified_at: at, seen_at: at }))
      .execute();
  }
}
