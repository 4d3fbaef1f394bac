// A row new in its period: nothing was billed before it, so its change is its whole amount and it has no percentage
// of change (int_change_pct is null from zero). Its percent change column reads "new" – what it is – rather than the
// dash of a missing value (issue 38 §5). One rule for every table that shows a change, page or workbook: a percent
// column that is a change (a rise is bad) is empty in a row whose money change is not zero.
import type { Unit } from '../model/index.ts';

export const NEW_ROW_TEXT = 'new';

interface ChangeColumn {
  unit: Unit;
  upIsBad?: boolean;
}

/** The columns a table marks: its percent change columns and the money change column they go with. */
export interface NewRowColumns {
  percent: number[];
  change: number;
}

export function newRowColumns(columns: readonly ChangeColumn[]): NewRowColumns | undefined {
  const change = columns.findIndex((c) => c.upIsBad && c.unit === 'usd');
  const percent = columns.flatMap((c, i) => (c.upIsBad && c.unit === 'percent' ? [i] : []));
  return change < 0 || percent.length === 0 ? undefined : { percent, change };
}

/** Whether `row`'s percent change is missing because the row is new (its money change, an exact value, is not 0). */
export function isNewRow(marks: NewRowColumns, row: readonly unknown[]): boolean {
  const change = row[marks.change];
  if (change === null || change === undefined) return false;
  return Number(change) !== 0;
}
