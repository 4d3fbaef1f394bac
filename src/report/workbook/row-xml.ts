// A table sheet's data rows as sheet XML text, the way exceljs 4.4.0's streaming writer renders them – without its
// Row and Cell objects. exceljs builds both for every row, computes a fresh style for each row object and renders
// through a generic XML builder: most of a million-row Detail sheet's time and garbage (bench/results/report.json).
// Here a row is one string: the same elements, attributes and value text (xlsx-writer.test.ts compares the two
// writers' XML byte for byte), and each column's style id is asked of exceljs's own style manager, for the same
// style object and value type exceljs would have asked with, so every id is the one exceljs would have given.
import { createRequire } from 'node:module';
import type { Style } from 'exceljs';
import type { CellValue } from '../cells/index.ts';

/** exceljs's style manager, which numbers the workbook's styles (styles.xml). */
export interface StyleIds {
  addStyleModel(style: Partial<Style>, cellType: number): number;
}

// exceljs's ValueType numbers (lib/doc/enums.js): its style manager picks a default number format by them
const NULL_TYPE = 0;
const NUMBER_TYPE = 2;
const STRING_TYPE = 3;
const DATE_TYPE = 4;
const BOOLEAN_TYPE = 9;
const DAY_MS = 24 * 3600 * 1000;
// 1899-12-30, day 0 of Excel's 1900 date system, in days before the Unix epoch (exceljs utils.dateToExcel)
const EXCEL_EPOCH_DAYS = 25569;

// exceljs's own escaping of cell text (it also drops the control characters XML 1.0 cannot carry)
const xmlEncode = (createRequire(import.meta.url)('exceljs/lib/utils/utils.js') as { xmlEncode(s: string): string }).xmlEncode;

function valueType(v: CellValue): number {
  if (v === null || v === undefined) return NULL_TYPE;
  if (typeof v === 'string') return STRING_TYPE;
  if (typeof v === 'number') return NUMBER_TYPE;
  if (typeof v === 'boolean') return BOOLEAN_TYPE;
  return DATE_TYPE;
}

function columnLetters(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

export interface RowXml {
  /** One `<row>` element: the values in column order from column A, the row's height when it has one. */
  row(rowNumber: number, values: readonly CellValue[], height?: number): string;
}

/** Rows whose cells take `styles[i]` in column i (one shared object per column, as the exceljs path assigns). */
export function createRowXml(styles: readonly Partial<Style>[], ids: StyleIds): RowXml {
  const n = styles.length;
  const letters = styles.map((_, i) => columnLetters(i + 1));
  // exceljs asks for a style's id when it renders a cell and keeps the first answer per style object (a WeakMap),
  // so asking at the first cell of each column, with that cell's value type, gets the id exceljs would use
  const styleAttr: (string | undefined)[] = new Array(n);
  const spans = ` spans="1:${n}" x14ac:dyDescent="0.25">`;
  const cell = (i: number, rowNumber: number, v: CellValue): string => {
    let s = styleAttr[i];
    if (s === undefined) {
      const id = ids.addStyleModel(styles[i]!, valueType(v));
      s = styleAttr[i] = id ? ` s="${id}"` : '';
    }
    if (v === null || v === undefined) return s ? `<c r="${letters[i]}${rowNumber}"${s}/>` : '';
    if (typeof v === 'number') return `<c r="${letters[i]}${rowNumber}"${s}><v>${v}</v></c>`;
    if (typeof v === 'string') return `<c r="${letters[i]}${rowNumber}"${s} t="str"><v>${xmlEncode(v)}</v></c>`;
    if (typeof v === 'boolean') return `<c r="${letters[i]}${rowNumber}"${s} t="b"><v>${v ? '1' : '0'}</v></c>`;
    return `<c r="${letters[i]}${rowNumber}"${s}><v>${EXCEL_EPOCH_DAYS + v.getTime() / DAY_MS}</v></c>`;
  };
  return {
    row(rowNumber, values, height) {
      // exceljs leaves out a row with no value and no height, before it asks for any style id
      if (!height && values.every((v) => v === null || v === undefined)) return '';
      let cells = '';
      for (let i = 0; i < n; i++) cells += cell(i, rowNumber, values[i] ?? null);
      return `<row r="${rowNumber}"${height ? ` ht="${height}" customHeight="1"` : ''}${spans}${cells}</row>`;
    },
  };
}
