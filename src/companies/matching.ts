// Which stored company a reported company is: by external id, then by domain, then (only for a
// report that brings neither, or whose domains are all new) by an unambiguous name. Reads only; the
// repository writes what this decides.
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { selectByKeys } from '../db/bulk.ts';
import type { PreparedCompany } from './input.ts';
import { chunkKeys, oneOf } from './child-tables.ts';

type Tx = Transaction<Database> | Db;

interface Namesake {
  id: number;
  country_code: string | null;
  domain: string | null;
  locality: string | null;
  postal_code: string | null;
}

/** Reports of a batch that go to one company. */
export interface Group {
  /** Existing company id, or undefined for a company this batch creates. */
  id?: number;
  items: PreparedCompany[];
  /** Each report's position in the batch. */
  indexes: number[];
}

/** Company ids of many normalized domains in a few statements (importers resolving a batch). */
export async function idsByNormalizedDomains(db: Tx, pg: boolean, domains: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const keys = [...new Set(domains)];
  const probed = selectByKeys<{ domain: string; company_id: number }>(
    db,
    'select domain, company_id from company_domains where domain in (?KEYS)',
    [],
    keys,
  );
  for (const part of probed ? [] : chunkKeys(keys)) {
    if (!part.length) continue;
    const found = await db
      .selectFrom('company_domains')
      .select(['domain', 'company_id'])
      .where((eb) => oneOf(pg, eb, 'domain', part, 'text'))
      .execute();
    for (const f of found) ids.set(f.domain, Number(f.company_id));
  }
  for (const f of probed ?? []) ids.set(f.domain, Number(f.company_id));
  return ids;
}

/** Groups the batch by target company (existing id, or one new company per distinct key). */
export async function groupByCompany(
  trx: Tx,
  pg: boolean,
  items: PreparedCompany[],
): Promise<{ groups: Group[]; failed: Map<number, string> }> {
  const byExternal = new Map<string, number>();
  const kinds = new Map<string, string[]>();
  for (const item of items)
    for (const x of item.externalIds) {
      // Pushed, not copied: a batch of 10,000 reports of one kind of id copied the list 10,000 times.
      const values = kinds.get(x.kind);
      if (values) values.push(x.value);
      else kinds.set(x.kind, [x.value]);
    }
  for (const [kind, values] of kinds) {
    const keys = [...new Set(values)];
    const probed = selectByKeys<{ value: string; company_id: number }>(
      trx,
      'select value, company_id from company_external_ids where kind = ? and value in (?KEYS)',
      [kind],
      keys,
    );
    for (const part of probed ? [] : chunkKeys(keys)) {
      const found = await trx
        .selectFrom('company_external_ids')
        .select(['value', 'company_id'])
        .where('kind', '=', kind)
        .where((eb) => oneOf(pg, eb, 'value', part, 'text'))
        .execute();
      for (const f of found) byExternal.set(`${kind}\u0000${f.value}`, Number(f.company_id));
    }
    for (const f of probed ?? []) byExternal.set(`${kind}\u0000${f.value}`, Number(f.company_id));
  }
  const byDomain = await idsByNormalizedDomains(
    trx,
    pg,
    items.flatMap((i) => i.domains),
  );

  // Namesakes of the reports that match nothing by id or domain (see the name rules below). A
  // report with domains can only complete a namesake that has no domain: its name key is looked
  // up in full only when a company without a domain, or another name of any company, has it.
  const nameOnlyKeys: string[] = [];
  const withDomainKeys: string[] = [];
  for (const i of items) {
    const key = i.facts.normalized_name;
    if (!key || i.externalIds.some((x) => byExternal.has(`${x.kind}\u0000${x.value}`)) || i.domains.some((d) => byDomain.has(d))) continue;
    (i.domains.length ? withDomainKeys : nameOnlyKeys).push(key);
  }
  const namesakesByKey = await namesakes(trx, pg, [...nameOnlyKeys, ...(await keysNamingDomainlessOrOther(trx, pg, withDomainKeys))]);

  const claimed = new Map<number, string[]>();
  const groups: Group[] = [];
  const failed = new Map<number, string>();
  const existingGroups = new Map<number, Group>();
  const pending = new Map<string, Group>();
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const keys = [...item.externalIds.map((x) => `x:${x.kind}\u0000${x.value}`), ...item.domains.map((d) => `d:${d}`)];
    let id: number | undefined;
    for (const x of item.externalIds) id ??= byExternal.get(`${x.kind}\u0000${x.value}`);
    for (const d of item.domains) id ??= byDomain.get(d);
    let group: Group | undefined;
    if (id === undefined) for (const k of keys) group ??= pending.get(k);
    const candidates = id === undefined && !group ? namesakesByKey.get(item.facts.normalized_name ?? '') : undefined;
    if (id === undefined && !group && item.domains.length === 0) {
      // No known id and no domain: only a name. Same name and country within the batch is one
      // company; otherwise an unambiguous stored match, else a new company.
      const nameKey = `n:${item.facts.normalized_name ?? ''}\u0000${item.facts.country_code ?? ''}`;
      // A registry's rows are each a company of their own: never joined by name within a batch.
      if (item.nameMatchNeedsPlace) id = candidates ? await pickNamesake(trx, item, candidates, false) : undefined;
      else {
        group = pending.get(nameKey);
        if (!group) {
          id = candidates ? await pickNamesake(trx, item, candidates, false) : undefined;
          if (id === undefined) keys.push(nameKey);
        }
      }
    }
    // (Most reports of a large import have no namesake: no await, no statement for them.)
    if (id === undefined && !group && item.domains.length > 0 && candidates) {
      // New domains: they complete an unambiguous namesake that has no domain yet (a company a
      // job board or a news feed created by name), rather than creating a twin. A namesake
      // with another domain is another company.
      id = await pickNamesake(trx, item, candidates, true);
      // Only one set of domains may complete a namesake within a batch: another report of the
      // same name with other domains is another company.
      if (id !== undefined) {
        const claim = claimed.get(id);
        if (claim && !item.domains.some((d) => claim.includes(d))) id = undefined;
        else claimed.set(id, [...(claim ?? []), ...item.domains]);
      }
    }
    if (id !== undefined) {
      group = existingGroups.get(id);
      if (!group) {
        group = { id, items: [], indexes: [] };
        existingGroups.set(id, group);
        groups.push(group);
      }
    } else if (!group) {
      if (!item.facts.name) {
        failed.set(index, 'a new company needs a name (no stored company has its domain or id)');
        continue;
      }
      group = { items: [], indexes: [] };
      groups.push(group);
    }
    if (group.id === undefined) for (const k of keys) if (!pending.has(k)) pending.set(k, group);
    group.items.push(item);
    group.indexes.push(index);
  }
  return { groups, failed };
}

/** The keys that are the display name of a company without a domain, or another name of any company. */
async function keysNamingDomainlessOrOther(trx: Tx, pg: boolean, keys: string[]): Promise<string[]> {
  const unique = [...new Set(keys)];
  const found = new Set<string>();
  const domainless = selectByKeys<{ normalized_name: string }>(
    trx,
    'select normalized_name from companies where domain is null and normalized_name in (?KEYS)',
    [],
    unique,
  );
  if (domainless) {
    for (const r of domainless) found.add(r.normalized_name);
    for (const r of selectByKeys<{ normalized_name: string }>(
      trx,
      'select normalized_name from company_names where normalized_name in (?KEYS)',
      [],
      unique,
    )!)
      found.add(r.normalized_name);
    return [...found];
  }
  for (const part of chunkKeys(unique)) {
    if (!part.length) continue;
    const display = await trx
      .selectFrom('companies')
      .select('normalized_name')
      .where('domain', 'is', null)
      .where((eb) => oneOf(pg, eb, 'normalized_name', part, 'text'))
      .execute();
    const other = await trx
      .selectFrom('company_names')
      .select('normalized_name')
      .where((eb) => oneOf(pg, eb, 'normalized_name', part, 'text'))
      .execute();
    for (const r of [...display, ...other]) found.add(r.normalized_name);
  }
  return [...found];
}

/** Stored companies by name key (display names and other names), for a batch of keys at once. */
async function namesakes(trx: Tx, pg: boolean, keys: string[]): Promise<Map<string, Namesake[]>> {
  const out = new Map<string, Namesake[]>();
  const add = (rows: (Namesake & { normalized_name: string })[]) => {
    for (const r of rows) {
      const list = out.get(r.normalized_name) ?? [];
      if (!list.some((x) => x.id === Number(r.id)))
        list.push({ id: Number(r.id), country_code: r.country_code, domain: r.domain, locality: r.locality, postal_code: r.postal_code });
      out.set(r.normalized_name, list);
    }
  };
  const unique = [...new Set(keys)];
  const display = selectByKeys<Namesake & { normalized_name: string }>(
    trx,
    'select id, normalized_name, country_code, domain, locality, postal_code from companies where normalized_name in (?KEYS)',
    [],
    unique,
  );
  if (display) {
    add(display);
    add(
      selectByKeys(
        trx,
        'select c.id, n.normalized_name, c.country_code, c.domain, c.locality, c.postal_code from company_names n join companies c on c.id = n.company_id where n.normalized_name in (?KEYS)',
        [],
        unique,
      )!,
    );
    return out;
  }
  for (const part of chunkKeys(unique)) {
    if (!part.length) continue;
    add(
      await trx
        .selectFrom('companies')
        .select(['id', 'normalized_name', 'country_code', 'domain', 'locality', 'postal_code'])
        .where((eb) => oneOf(pg, eb, 'normalized_name', part, 'text'))
        .execute(),
    );
    add(
      await trx
        .selectFrom('company_names as n')
        .innerJoin('companies as c', 'c.id', 'n.company_id')
        .select(['c.id', 'n.normalized_name', 'c.country_code', 'c.domain', 'c.locality', 'c.postal_code'])
        .where((eb) => oneOf(pg, eb, 'n.normalized_name', part, 'text'))
        .execute(),
    );
  }
  return out;
}

const postcodeKey = (value: string | null | undefined) => value?.replace(/\s+/g, '').toLowerCase() || null;

/** The same postcode, or (when either lacks one) the same town; a company without either is in no known place. */
function samePlace(item: PreparedCompany, stored: Namesake): boolean {
  const postcode = postcodeKey(item.facts.postal_code);
  const storedPostcode = postcodeKey(stored.postal_code);
  if (postcode && storedPostcode) return postcode === storedPostcode;
  const town = item.facts.locality;
  return !!town && !!stored.locality && town === stored.locality;
}

/**
 * The existing company a report can safely be merged into by name: the only stored company with
 * its name key, not in another country, without another id of a kind the report carries, in the
 * same place when the report says so (`nameMatchNeedsPlace`), and — when the report brings domains
 * (`onlyWithoutDomain`) — without a domain of its own.
 */
async function pickNamesake(
  trx: Tx,
  item: PreparedCompany,
  candidates: Namesake[] | undefined,
  onlyWithoutDomain: boolean,
): Promise<number | undefined> {
  if (!candidates || candidates.length !== 1) return undefined;
  const only = candidates[0];
  if (onlyWithoutDomain && only.domain !== null) return undefined;
  const country = item.facts.country_code;
  if (country && only.country_code && country !== only.country_code) return undefined;
  if (item.nameMatchNeedsPlace && !samePlace(item, only)) return undefined;
  // A stored id of the same kind with another value means another company of the same name.
  for (const x of item.externalIds) {
    const other = await trx
      .selectFrom('company_external_ids')
      .select('value')
      .where('company_id', '=', only.id)
      .where('kind', '=', x.kind)
      .where('value', '!=', x.value)
      .executeTakeFirst();
    if (other) return undefined;
  }
  return only.id;
}
