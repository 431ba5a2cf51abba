import { Type } from '@sinclair/typebox';
import { Nullable } from './common.ts';
import { EMAIL_STATUSES } from './email.ts';

// Bulk validation jobs (an extension: the original API validates one address per request).

export const BULK_JOB_STATUSES = ['queued', 'running', 'paused', 'paused_insufficient_credits', 'done', 'cancelled', 'failed'] as const;

export const BulkJobParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const BulkJobResponse = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(BULK_JOB_STATUSES.map((s) => Type.Literal(s))),
    total: Type.Integer({ description: 'Distinct addresses in the list (repeats, in any case, are validated and charged once).' }),
    duplicates: Type.Integer({ description: 'Entries that repeat an earlier address.' }),
    refused: Type.Integer({ description: 'Entries with no address (a blank cell, a value that is not text): not validated.' }),
    processed: Type.Integer({ description: 'Results charged and available so far.' }),
    counts: Type.Object(Object.fromEntries(EMAIL_STATUSES.map((s) => [s, Type.Integer()]))),
    credits_consumed: Type.Number({ description: 'Credits charged so far, at the single-address prices.' }),
    failure_reason: Nullable(Type.String({ description: 'Why the job failed (its retries ran out); null unless failed.' })),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'BulkValidationJob' },
);

export const BulkResults = Type.String({
  description:
    "One line per charged result, in list order: NDJSON by default, CSV with Accept: text/csv. Each row has the list's other columns and every field of the single-address answer.",
});
