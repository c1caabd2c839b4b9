/*
 * Formulas in CSV cells (OWASP "CSV injection"): a spreadsheet runs a cell that begins with `=`, `+`, `-`, `@`,
 * a tab or a carriage return as a formula, so a title such as `=HYPERLINK(...)` written by a contributor would
 * be live when an administrator opens the export. The export writes such a cell behind a single quote, which
 * spreadsheets show as text; our own import takes that quote away again, and only that one.
 *
 * The rule is exact both ways: a cell is escaped when it is one or more quotes followed by a trigger, or a
 * trigger alone (`=x` → `'=x`, `'=x` → `''=x`), and the import removes one quote from a cell that is one or
 * more quotes followed by a trigger. So every text comes back as it was, a title that begins with `'=` too.
 * A cell made of digits and only spaces and `+ - ( ) . , /` between them stays as it is: a negative number such as
 * `-12.5` (still a number in the spreadsheet) or a phone number such as `+1 217 555 0100` (which the original
 * plugin's importer would otherwise store with the quote). Such a cell holds no function and no reference to a
 * cell or another program: nothing a formula could fetch, send or run.
 */

/** Quotes (none or more) and then a character a spreadsheet starts a formula with. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** What the import unescapes: at least one quote, then a trigger. */
const ESCAPED_START = /^'+[=+\-@\t\r]/;
/** Digits with spaces and `+ - ( ) . , /` only: `-12.5`, `-1,50`, `+1 217 555 0100`, `+49 (30) 1234-5`. */
const PLAIN_NUMBER = /^[-+(]*\d[\d ().,/+-]*$/;

/** A cell as the export writes it: behind a quote if a spreadsheet would take it for a formula. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** A cell as the export had it before `neutraliseCell`: its one added quote taken away. */
export function restoreCell(value: string): string {
  return ESCAPED_START.test(value) ? value.slice(1) : value;
}
