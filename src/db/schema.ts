// The whole database as Kysely sees it: each domain declares its own tables
// beside its code, and this interface joins them.
import type { PlatformTables } from './platform-tables.ts';
import type { CompanyTables } from '../companies/tables.ts';
import type { EmailTables } from '../email/tables.ts';
import type { JobTables } from '../jobs/tables.ts';
import type { PeopleTables } from '../people/tables.ts';
import type { QueueTables } from '../queue/tables.ts';
import type { SourceTables } from '../sources/tables.ts';
import type { AuditTables } from '../audit/tables.ts';
import type { BulkTables } from '../bulk/tables.ts';

export interface Database
  extends PlatformTables, CompanyTables, EmailTables, JobTables, PeopleTables, QueueTables, SourceTables, AuditTables, BulkTables {}
