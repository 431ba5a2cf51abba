import { ashby } from './ashby.ts';
import { greenhouse } from './greenhouse.ts';
import { jsonld } from './jsonld.ts';
import { lever } from './lever.ts';
import { personio } from './personio.ts';
import { recruitee } from './recruitee.ts';
import { smartrecruiters } from './smartrecruiters.ts';
import type { JobConnector } from './types.ts';
import { workable } from './workable.ts';

export const JOB_CONNECTORS: Record<string, JobConnector> = {
  greenhouse,
  lever,
  ashby,
  workable,
  smartrecruiters,
  recruitee,
  personio,
  jsonld,
};

export const JOB_SOURCES = Object.keys(JOB_CONNECTORS);

export function connectorFor(source: string): JobConnector {
  const connector = JOB_CONNECTORS[source];
  if (!connector) throw new Error(`unknown job source "${source}" (one of ${JOB_SOURCES.join(', ')})`);
  return connector;
}
