import { Type, type Static } from '@sinclair/typebox';
import { IdName } from './common.ts';

export const IdNameList = Type.Array(IdName, { title: 'IdNameList' });
export type IdNameList = Static<typeof IdNameList>;

export const JobCountryList = Type.Array(
  Type.Object({ id: Type.String({ description: 'ISO 3166-1 alpha-2 code' }), name: Type.String() }),
  { title: 'JobCountryList' },
);
export type JobCountryList = Static<typeof JobCountryList>;

export const CreditsResponse = Type.Object(
  { credits: Type.Number({ description: "The calling key's balance in credits" }) },
  { title: 'Credits' },
);
export type CreditsResponse = Static<typeof CreditsResponse>;
