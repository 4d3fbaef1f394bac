// The "About" sheet: how this workbook came about – when, by which gpuledger, from which database and period,
// and the query behind every sheet, so a reader can reproduce any number with `gpuledger query`.
import { STYLE } from '../cells/index.ts';
import { wrapStyle } from './page-width.ts';
import { writeHeading } from './sheet-heading.ts';
import type { XlsxWriter } from './xlsx-writer.ts';

export interface MetadataInput {
  facts: [string, string][];
  queries: { sheet: string; what: string; sql: string }[];
  parameters: [string, string][];
  simulatedAccounts: readonly string[];
}

// Excel refuses cells longer than 32,767 characters
const MAX_CELL = 32_000;
const PART_WIDTH = 28;
const LABEL_TOP = wrapStyle(STYLE.label);

export function writeMetadataSheet(writer: XlsxWriter, input: MetadataInput): void {
  // the query table is the long part: its header row heads every printed page
  const queryHeaderRow = 1 + (input.simulatedAccounts.length > 0 ? 1 : 0) + 1 + input.facts.length + 2 + input.parameters.length + 2;
  const ws = writer.addSheet('About', { showGridLines: false, printTitleRows: { first: queryHeaderRow, last: queryHeaderRow } });
  ws.columns = [{ width: 26 }, { width: PART_WIDTH }, { width: 110 }];
  writeHeading(ws, { title: 'About this workbook', lines: [], simulatedAccounts: input.simulatedAccounts });
  const put = (cells: (string | null)[], styles: object[], height?: number) => {
    const row = ws.addRow(cells);
    styles.forEach((s, i) => (row.getCell(i + 1).style = s));
    if (height) row.height = height;
    row.commit();
  };
  put([], []);
  for (const [k, v] of input.facts) put([k, v], [STYLE.label, STYLE.label]);
  put([], []);
  put(['Query parameters'], [STYLE.section]);
  for (const [k, v] of input.parameters) put([k, v], [STYLE.label, STYLE.label]);
  put([], []);
  put(['Sheet', 'Part', 'Query'], [STYLE.header, STYLE.header, STYLE.header]);
  for (const q of input.queries) {
    const sql = q.sql.trim();
    const text = sql.length > MAX_CELL ? `${sql.slice(0, MAX_CELL)}\n… (truncated)` : sql;
    // a part's name longer than its column wraps at the row's top, beside its query: cut off, it printed under
    // the query's text
    const lines = Math.min(40, Math.max(text.split('\n').length, Math.ceil(q.what.length / (PART_WIDTH - 2)) + 1));
    put([q.sheet, q.what, text], [LABEL_TOP, LABEL_TOP, STYLE.wrap], Math.max(15, lines * 12));
  }
}
