// Lists of addresses as CSV, shared by `leadbase validate` and the bulk API: which column holds the
// address (rows are written back with src/csv/write.ts).

/** How a list is read: a byte-order mark skipped, rows of any length, blank lines ignored. */
export const CSV_READ_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true };

/** Headers read as the address column ("Email", "E-mail", "Email Address", "work_email"…), compared without case, spaces, hyphens or underscores. */
const EMAIL_HEADERS = new Set(['email', 'emailaddress', 'mail', 'workemail']);

/** A header without case, spaces, hyphens or underscores. */
export const headerKey = (h: string) => h.toLowerCase().replace(/[\s_-]/g, '');

/** The index of the address column in a header row, or -1. */
export const emailColumnOf = (header: readonly string[]) => header.findIndex((f) => EMAIL_HEADERS.has(headerKey(f)));
