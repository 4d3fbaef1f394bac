// The top of every sheet: a title, a line saying what the sheet holds and for which period, and – when any account
// in the report is simulated – a red SIMULATED DATA banner, so nobody mistakes demo numbers for spend.
import type { SheetWriter } from './xlsx-writer.ts';
import { STYLE } from '../cells/index.ts';
import { simulatedBanner } from '../../present/simulated.ts';
import type { Heading } from '../heading.ts';

export { SIMULATED_LABEL, simulatedBanner } from '../../present/simulated.ts';
export type { Heading } from '../heading.ts';

// row heights, points: the title's, a line's (the default row height), the banner's
const TITLE_PT = 22;
const LINE_PT = 15;
const BANNER_PT = 20;

/** How many rows writeHeading writes (known before the sheet is opened, for its print titles). */
export function headingRows(heading: Heading): number {
  return 1 + heading.lines.length + (heading.simulatedAccounts.length > 0 ? 1 : 0);
}

/** How tall the heading prints, points: it heads every printed page, so every page holds that much less. */
export function headingPoints(heading: Heading): number {
  return TITLE_PT + heading.lines.length * LINE_PT + (heading.simulatedAccounts.length > 0 ? BANNER_PT : 0);
}

/** Write the heading rows; returns the number of rows written. */
export function writeHeading(ws: SheetWriter, heading: Heading): number {
  let n = 0;
  const put = (text: string, style: object, height?: number) => {
    const row = ws.addRow([text]);
    row.getCell(1).style = style;
    if (height) row.height = height;
    row.commit();
    n += 1;
  };
  put(heading.title, STYLE.title, TITLE_PT);
  for (const line of heading.lines) put(line, STYLE.subtitle);
  if (heading.simulatedAccounts.length > 0) {
    // the banner's white text runs past its cell: fill the row across the sheet's columns, or it prints white on white
    const row = ws.addRow([simulatedBanner(heading.simulatedAccounts)]);
    const width = Math.max(1, Math.min(ws.columns?.length ?? 1, 12));
    for (let i = 1; i <= width; i++) row.getCell(i).style = STYLE.alert;
    row.height = BANNER_PT;
    row.commit();
    n += 1;
  }
  return n;
}
