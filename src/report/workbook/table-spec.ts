// What a table sheet is made from (its definition, resolved) and what each of its columns became: shared by the sheet
// writer (table-sheet.ts) and the pass that sizes it (table-stats.ts), which therefore need not import each other.
import type { ColumnFormat } from '../cells/index.ts';
import type { ColumnDefinition } from '../definition/index.ts';
import type { Heading } from './sheet-heading.ts';

export interface TableSheetSpec {
  name: string;
  heading: Heading;
  sql: string;
  columns: readonly ColumnDefinition[] | undefined;
  freezeColumns: number;
  emptyText: string;
  large: boolean;
  /** Where the sheet is defined, for messages: "reports/nightly.yaml sheets.3". */
  where: string;
}

export type { ResolvedColumn } from '../table-columns.ts';
