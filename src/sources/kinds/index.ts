// Source kinds that read a data set (rather than a job board or a feed): each kind is one
// descriptor in its own module, listed here. The registry takes its type, default interval and
// locator rule from it; the runner calls its `read` (the interface: ../kind.ts).
import type { DataSetKind } from '../kind.ts';
import { companiesHouseKind } from './companies_house.ts';
import { formdKind } from './formd.ts';
import { WIKIDATA_KIND } from './wikidata.ts';

/** Every data-set kind, by type. */
export const DATA_SET_KINDS: Record<string, DataSetKind> = {
  companies_house: companiesHouseKind,
  formd: formdKind,
  wikidata: WIKIDATA_KIND,
};

export const DATA_SET_TYPES = Object.keys(DATA_SET_KINDS);
