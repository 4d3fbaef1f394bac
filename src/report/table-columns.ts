// The columns a table shows, resolved from its definition against what its query returned: header, format, totals
// and colours. The workbook's table sheets and the HTML report's table sections resolve them here, the same way.
import { ReportDefinitionError, type ColumnDefinition } from './definition/index.ts';
import type { QueryColumn } from './query.ts';
import { columnHeading, inferFormat, isNumericFormat } from './cells/index.ts';
import type { ColumnFormat } from './cells/index.ts';

/** What a column became: where it is in the result, how it is shown and totalled. */
export interface ResolvedColumn {
  field: string;
  /** Position in the query result. */
  index: number;
  header: string;
  format: ColumnFormat;
  total: 'sum' | 'label' | undefined;
  dataBar: boolean;
  upIsBad: boolean;
  width: number;
}

/** `spec.columns` absent: every query column, money summed. */
export function resolveColumns(spec: { columns: readonly ColumnDefinition[] | undefined; where: string }, result: QueryColumn[]): ResolvedColumn[] {
  const index = new Map(result.map((c, i) => [c.name, i]));
  const defs: ColumnDefinition[] =
    spec.columns?.slice() ??
    result.map((c) => {
      const format = inferFormat(c.typeId, c.name);
      return { field: c.name, dataBar: false, upIsBad: false, ...(format === 'usd' ? { total: 'sum' as const } : {}) };
    });
  const resolved = defs.map((d, i) => {
    const at = index.get(d.field);
    if (at === undefined) {
      throw new ReportDefinitionError(`${spec.where}.columns.${i + 1}.field: the query has no column '${d.field}' (it has ${result.map((c) => c.name).join(', ')})`);
    }
    return {
      field: d.field,
      index: at,
      header: d.header ?? columnHeading(d.field),
      format: d.unit ?? inferFormat(result[at]!.typeId, d.field),
      total: d.total,
      dataBar: d.dataBar,
      upIsBad: d.upIsBad,
      width: d.width ?? 0,
    };
  });
  // with sums but no label column, the word "Total" goes into the first column that is not summed
  if (resolved.some((c) => c.total === 'sum') && !resolved.some((c) => c.total === 'label')) {
    const first = resolved.find((c) => c.total === undefined && !isNumericFormat(c.format));
    if (first) first.total = 'label';
  }
  return resolved;
}
