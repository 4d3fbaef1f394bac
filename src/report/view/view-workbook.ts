// A saved view's workbook (`report --view <name>`): one sheet with the view's heading, its chart and its table – the
// groups × periods of the explorer's answer with each group's total, share and change, and the totals row. Each
// figure is the answer's exact DECIMAL written as the cell's number with the metric's unit as its format
// (src/model/units.ts), so the sheet reads as the other sheets do and its total equals /explore's to the cent.
import { rmSync, statSync } from 'node:fs';
import type { ExploreAnswer } from '../../explore/run-explore.ts';
import { partialMark } from '../../explore/coverage-marks.ts';
import { dimensionLabel } from '../../explore/view-text.ts';
import { moveIntoPlace, temporaryBeside } from '../../outputs/atomic-file.ts';
import { VERSION } from '../../version.ts';
import { cellStyle, STYLE, type ColumnFormat } from '../cells/index.ts';
import type { Heading } from '../heading.ts';
import { createXlsxWriter, writeHeading } from '../workbook/index.ts';
import type { RenderedChart } from '../charts/index.ts';
import { MEASURES } from '../../model/semantic.ts';

const ROW_PX = 20; // a default row (15 pt) in pixels: the rows the chart stands over

/** The unit the answer's figures are in: a cost, GPU-hours, or a cost per unit of a business metric. */
export function answerUnit(a: ExploreAnswer): ColumnFormat {
  return a.request.metric === 'cost' ? 'usd' : a.request.metric === 'gpu_hours' ? 'hours' : 'usd_per_unit';
}

/** An exact DECIMAL string as a cell's number; a period without a figure is an empty cell, never 0. */
const numberCell = (v: string | null) => (v === null ? null : Number(v));

/** A period's heading: its first day, and how much of it the figures cover when only part ("4 of 7 days"). */
export function periodHeading(a: ExploreAnswer, period: string, i: number): string {
  const mark = a.coverage[i] === undefined ? undefined : partialMark(a.coverage[i]!, a.request.granularity);
  return mark === undefined ? period : `${period} (${mark})`;
}

export interface ViewSheetInput {
  answer: ExploreAnswer;
  heading: Heading;
  chart: RenderedChart;
  sheetName: string;
  /** Where the workbook goes: already checked by checkFileOutput. */
  path: string;
  dbPath: string;
}

export async function writeViewWorkbook(input: ViewSheetInput): Promise<{ path: string; bytes: number; rows: number }> {
  const { answer: a, heading, chart } = input;
  const r = a.request;
  const t = a.table;
  const tmp = temporaryBeside(input.path, input.dbPath);
  try {
    const writer = createXlsxWriter(tmp, { creator: `gpuledger ${VERSION}`, title: heading.title, footer: { left: heading.title, center: `${r.from} – ${r.to}` } });
    const ws = writer.addSheet(input.sheetName, { showGridLines: false });
    ws.columns = [...r.by.map(() => ({ width: 28 })), ...t.periods.map(() => ({ width: 13 })), { width: 15 }, { width: 10 }, { width: 10 }];
    let rowNo = writeHeading(ws, heading);
    const blank = () => (ws.addRow([]).commit(), (rowNo += 1));
    blank();
    const chartRow = rowNo;
    for (let k = 0; k < Math.ceil(chart.height / ROW_PX) + 1; k++) blank();
    const unit = answerUnit(a);
    const money = cellStyle(unit);
    const moneyTotal = cellStyle(unit, { total: true });
    const share = cellStyle('percent');
    const shareTotal = cellStyle('percent', { total: true });
    const change = cellStyle('percent', { signed: true });
    const changeTotal = cellStyle('percent', { signed: true, total: true });
    const header = ws.addRow([...r.by.map(dimensionLabel), ...t.periods.map((p, i) => periodHeading(a, p, i)), 'Total', MEASURES.share.label, MEASURES.change.label]);
    header.eachCell((c, i) => (c.style = i > r.by.length ? STYLE.headerRight : STYLE.header));
    header.commit();
    for (const g of t.groups) {
      const keys = g.keys.length === 0 ? ['Other', ...r.by.slice(1).map(() => '')] : g.keys.map((k, i) => g.names[i] ?? k);
      const row = ws.addRow([...keys, ...g.cells.map(numberCell), numberCell(g.total), numberCell(g.share), numberCell(g.change)]);
      for (let i = 0; i <= t.periods.length; i++) row.getCell(r.by.length + 1 + i).style = money;
      row.getCell(r.by.length + t.periods.length + 2).style = share;
      row.getCell(r.by.length + t.periods.length + 3).style = change;
      row.commit();
    }
    const totalShare = t.total === null || t.total === '0.000000' ? null : 100;
    const total = ws.addRow(['Total', ...r.by.slice(1).map(() => ''), ...t.periodTotals.map(numberCell), numberCell(t.total), totalShare, numberCell(t.change)]);
    total.eachCell({ includeEmpty: true }, (c, i) => (c.style = i <= r.by.length ? { ...STYLE.label, font: { bold: true } } : i === r.by.length + t.periods.length + 2 ? shareTotal : i === r.by.length + t.periods.length + 3 ? changeTotal : moneyTotal));
    total.commit();
    const note = ws.addRow(['Top 10 groups by total, the rest as Other; the same figures as the view on /explore (exact amounts in each cell, the format shows cents).']);
    note.getCell(1).style = STYLE.note;
    note.commit();
    writer.addImages(ws, [{ png: chart.png, col: 0, row: chartRow, width: chart.width, height: chart.height, name: chart.title }]);
    ws.commit();
    await writer.commit();
    moveIntoPlace(tmp, input.path);
    return { path: input.path, bytes: statSync(input.path).size, rows: t.groups.length };
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
