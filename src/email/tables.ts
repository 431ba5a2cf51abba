// Kysely table types of the email domain. Conventions: see docs/architecture.md.
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface EmailTables {}
