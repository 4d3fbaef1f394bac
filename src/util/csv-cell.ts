// CSV that is data, never code (OWASP "CSV Injection"; issue 37 §2): a spreadsheet opening a CSV reads a text cell
// that starts with = + - @ (or a tab or CR before one) as a formula – `=HYPERLINK("http://x","y")` as a live link.
// Such a cell is written with a leading ' , which Excel and LibreOffice show as text and drop from the value. Said
// once here; the page script's CSV buttons take the same rule from FORMULA_START_SOURCE
// (src/present/browser/page-script.ts bundles it in).

/** The first characters a spreadsheet reads as the start of a formula (OWASP's list). */
export const FORMULA_START_SOURCE = '^[=+\\-@\\t\\r]';
const FORMULA_START = new RegExp(FORMULA_START_SOURCE);

/**
 * A text cell as a person's spreadsheet must read it: prefixed with ' when it would start a formula. Only text: a
 * negative number is a number (the caller knows the column's type and never passes one here).
 */
export function formulaSafeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
