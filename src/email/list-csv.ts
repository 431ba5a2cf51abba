// Lists of addresses as CSV, shared by `leadbase validate` and the bulk API: which column holds the
// address, and how a row is written back.

/** How a list is read: a byte-order mark skipped, rows of any length, blank lines ignored. */
export const CSV_READ_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true };

/** Headers read as the address column ("Email", "E-mail", "Email Address", "work_email"…), compared without case, spaces, hyphens or underscores. */
const EMAIL_HEADERS = new Set(['email', 'emailaddress', 'mail', 'workemail']);

/** A header without case, spaces, hyphens or underscores. */
export const headerKey = (h: string) => h.toLowerCase().replace(/[\s_-]/g, '');

/** The index of the address column in a header row, or -1. */
export const emailColumnOf = (header: readonly string[]) => header.findIndex((f) => EMAIL_HEADERS.has(headerKey(f)));

/** A CSV field: quoted when it holds a comma, a quote, a line break or edge spaces; objects as JSON. */
function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: readonly unknown[]) => `${fields.map(csvField).join(',')}\n`;
