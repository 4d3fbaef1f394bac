// Reading a rendered workbook back with exceljs's reader, the way a test checks it like a person would.
import ExcelJS from 'exceljs';
import { expect } from 'vitest';

export async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

export function sheet(wb: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`no sheet ${name} (have ${wb.worksheets.map((w) => w.name).join(', ')})`);
  return ws;
}

/** The row whose first cell is `firstHeader` (the header row of a table sheet). */
export function headerRow(ws: ExcelJS.Worksheet, firstHeader: string): number {
  for (let r = 1; r <= Math.min(ws.rowCount, 20); r++) if (ws.getRow(r).getCell(1).value === firstHeader) return r;
  throw new Error(`no header row starting with ${firstHeader} in ${ws.name}`);
}

export function columnOf(ws: ExcelJS.Worksheet, row: number, header: string): number {
  const cells = ws.getRow(row).values as unknown[];
  const i = cells.indexOf(header);
  if (i < 1) throw new Error(`no column ${header} in ${ws.name} row ${row}: ${JSON.stringify(cells)}`);
  return i;
}

/** Numbers of a column below the header row, skipping empty cells. */
export function columnNumbers(ws: ExcelJS.Worksheet, fromRow: number, col: number): number[] {
  const out: number[] = [];
  for (let r = fromRow; r <= ws.rowCount; r++) {
    const v = ws.getRow(r).getCell(col).value;
    if (typeof v === 'number') out.push(v);
  }
  return out;
}

/** The value of a totals cell: a SUM formula's cached result, or a plain number. */
export function totalValue(cell: ExcelJS.Cell): number {
  const v = cell.value as unknown;
  if (typeof v === 'number') return v;
  const f = v as { formula?: string; result?: number };
  expect(f.formula).toMatch(/^SUM\(/);
  return f.result!;
}

/** Equal to the cent: |a − b| < half a cent. */
export function expectCents(actual: number, exactDecimal: string | number | null): void {
  const expected = Number(exactDecimal ?? 0);
  expect(Math.abs(actual - expected), `${actual} vs ${exactDecimal}`).toBeLessThan(0.005);
}

export function sum(values: number[]): number {
  // Kahan summation: the test's own float error must not hide or fake a cent
  let s = 0;
  let c = 0;
  for (const v of values) {
    const y = v - c;
    const t = s + y;
    c = t - s - y;
    s = t;
  }
  return s;
}

export interface ReadRule {
  ref: string;
  type: string;
  operator?: string;
  style?: { font?: { color?: { argb?: string } } };
}

/** Conditional formatting rules as the reader parsed them (exceljs's typings omit the property). */
export function conditionalRules(ws: ExcelJS.Worksheet): ReadRule[] {
  const cfs = (ws as unknown as { conditionalFormattings: { ref: string; rules: Omit<ReadRule, 'ref'>[] }[] }).conditionalFormattings;
  return cfs.flatMap((cf) => cf.rules.map((r) => ({ ref: cf.ref, ...r })));
}

/** The print settings every sheet promises: landscape, one page wide, header rows repeated, the footer. */
export function expectPrintable(ws: ExcelJS.Worksheet, footer: { report: string; period: string }): void {
  expect(ws.pageSetup, ws.name).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
  expect(ws.pageSetup.printTitlesRow, ws.name).toMatch(/^\d+:\d+$/);
  const footerText = ws.headerFooter.oddFooter ?? '';
  expect(footerText, ws.name).toContain(`&L${footer.report.replace(/&/g, '&&')}`);
  expect(footerText, ws.name).toContain(`&C${footer.period}`);
  expect(footerText, ws.name).toContain('&RPage &P of &N');
}

/** The rows printed on every page, as [first, last]. */
export function printTitleRows(ws: ExcelJS.Worksheet): [number, number] {
  const [first, last] = (ws.pageSetup.printTitlesRow ?? '').split(':').map(Number);
  return [first!, last!];
}
