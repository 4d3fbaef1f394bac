// A spreadsheet cell holds at most 32,767 characters (Excel's limit; a longer one makes Excel "repair" the file and
// LibreOffice cut it without a word). A longer text – a 40,000-character name from the API (issue 37 §5) – is cut
// to fit with a visible mark saying how long it was; the database keeps the whole name, and the CSV downloads and
// `query` give it whole.

import { unitText } from '../../model/index.ts';

export const CELL_MAX_CHARS = 32_767;

/** `text` as a cell can hold it: whole, or cut with "… [cut: 40,000 characters]" at the end, 32,767 in all. */
export function withinCell(text: string): string {
  if (text.length <= CELL_MAX_CHARS) return text;
  const mark = `… [cut: ${unitText(text.length, 'count')} characters]`;
  let end = CELL_MAX_CHARS - mark.length;
  // never half of a surrogate pair: the cell would hold a broken character
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + mark;
}

/** A cell value, its text cut to fit (numbers, dates and empty cells as they are). */
export function fitCell<T>(value: T): T {
  return (typeof value === 'string' ? withinCell(value) : value) as T;
}
