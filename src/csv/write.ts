// Every CSV file we hand out is written here: a cell is quoted when it holds a comma, a quote, a line
// break or edge spaces, and objects are written as JSON. A cell a spreadsheet would run as a formula
// (one beginning with =, +, -, @, a tab or a carriage return) is written with a leading ' (OWASP's
// "CSV injection" rule), unless it is a plain number such as -5 or +44, which no spreadsheet runs.

/** Characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number: sign, digits, one decimal point, an exponent. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A cell's text: empty for null and undefined, JSON for objects and lists. */
const textOf = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** The text with a leading ' when a spreadsheet would run it as a formula. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

const quoted = (text: string) => (/[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** One line of a CSV file we hand out (the formula rule applied to every cell), ending with a line break. */
export const csvLine = (fields: readonly unknown[]) => `${fields.map((value) => quoted(neutralised(textOf(value)))).join(',')}\n`;

/**
 * One line of CSV text we read back ourselves (a list rebuilt before it is parsed again): the cells
 * exactly as given, without the formula rule, which would change the values.
 */
export const csvRecord = (fields: readonly unknown[]) => `${fields.map((value) => quoted(textOf(value))).join(',')}\n`;
