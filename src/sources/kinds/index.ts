// Every source kind, by the `type` of its sources: the job boards, RSS/Atom feeds and the data
// sets, each implemented in its own folder here (the interface: ../kind.ts). The registry, the
// runner, the scheduler, bootstrap and status read this list and nothing else: a new kind of
// source is one folder and one line below.
import type { DataSetKind, SourceKind } from '../kind.ts';
import { BOARD_KINDS } from './boards/index.ts';
import { companiesHouseKind } from './companies_house/index.ts';
import { FEED_KIND } from './feed/index.ts';
import { formdKind } from './formd/index.ts';
import { WIKIDATA_KIND } from './wikidata/index.ts';

/** Every kind, by type (tests may register one of their own before the registry is loaded). */
export const SOURCE_KINDS: Record<string, SourceKind> = Object.fromEntries(
  [...BOARD_KINDS, FEED_KIND, companiesHouseKind, formdKind, WIKIDATA_KIND].map((kind) => [kind.type, kind]),
);

/** The kind of a type, or undefined when no such type exists. */
export function kindOf(type: string): SourceKind | undefined {
  return Object.hasOwn(SOURCE_KINDS, type) ? SOURCE_KINDS[type] : undefined;
}

/** The kinds that read a data set, in the list's order. */
export function dataSetKinds(): DataSetKind[] {
  return Object.values(SOURCE_KINDS).filter((kind): kind is DataSetKind => kind.family === 'data-set');
}
