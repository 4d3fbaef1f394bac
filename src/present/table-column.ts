// A column of a page table: its field, its heading, its unit (src/model/units.ts: what its values read as), and – as
// data – where a cell links to.
import { declaredUnit, isNumberUnit, type Unit } from '../model/index.ts';

/** Where a cell goes: a page, or a section of this page whose filter takes `filter`. */
export interface CellLink {
  href: string;
  filter?: string;
}

export interface TableColumn {
  field: string;
  header: string;
  unit: Unit;
  /** A rise is bad (cost): shown signed, red up, green down. */
  upIsBad?: boolean;
  /** 'sum': the totals row sums it; 'label': the totals row says "Total" in it. */
  total?: 'sum' | 'label';
  /** The table's headline amount (the workbook draws a data bar in it). */
  dataBar?: boolean;
  /** The link of a cell, from its value and row; undefined: plain text. */
  link?: (value: unknown, row: readonly unknown[]) => CellLink | undefined;
}

export function isNumberColumn(c: Pick<TableColumn, 'unit'>): boolean {
  return isNumberUnit(c.unit);
}

/** A column headed and measured as the model declares its name (text when it declares nothing). */
export function declaredColumn(field: string, header: string, more: Partial<TableColumn> = {}): TableColumn {
  return { field, header, unit: declaredUnit(field) ?? 'text', ...more };
}
