// What a table sheet must know before its first row is written when streaming: the row count, the exact totals
// and the widest value per column – from one aggregate SQL pass (large results) or from the rows themselves (small
// results, read once). And the column widths that follow from them.
import type { DuckDBValue } from '@duckdb/node-api';
import type { Store } from '../../store/database.ts';
import { quotedIdentifier } from '../../util/duckdb-api.ts';
import { bareSql, queryAll, streamRawRows, type QueryParameters } from '../query.ts';
import { displayLength, ExactSum, isNumericFormat, type CellValue, type RawConverter } from '../cells/index.ts';
import type { ResolvedColumn, TableSheetSpec } from './table-spec.ts';

export const SMALL_RESULT_ROWS = 20_000;

export interface Stats {
  rows: number;
  totals: Record<string, string | number | null>;
  /** Widest shown value per result column index. */
  widest: Map<number, number>;
}

/** The large path's first pass: count, exact SUMs and widest values in one aggregate over the query. */
export async function sqlStats(store: Store, spec: Pick<TableSheetSpec, 'sql' | 'where'>, columns: ResolvedColumn[], count: number, params: QueryParameters): Promise<Stats> {
  const aliases = Array.from({ length: count }, (_, i) => `c${i}`);
  const parts = ['count(*) as n'];
  for (const c of columns) {
    const col = `c${c.index}`;
    if (c.total === 'sum') parts.push(`sum(${col}) as ${quotedIdentifier(`t_${c.field}`)}`);
    if (c.width > 0) continue;
    if (isNumericFormat(c.format)) parts.push(`max(abs(${col})) as ${quotedIdentifier(`w_${c.field}`)}`);
    else if (c.format === 'text' || c.format === 'boolean') parts.push(`max(length(${col}::varchar)) as ${quotedIdentifier(`w_${c.field}`)}`);
  }
  const sql = `select ${parts.join(', ')} from (\n${bareSql(spec.sql)}\n) as q(${aliases.join(', ')})`;
  const { columns: names, rows } = await queryAll(store, sql, params, spec.where);
  const row = rows[0] ?? [];
  const get = (name: string) => row[names.findIndex((c) => c.name === name)];
  const stats: Stats = { rows: Number(get('n') ?? 0), totals: {}, widest: new Map() };
  for (const c of columns) {
    if (c.total === 'sum') stats.totals[c.field] = (get(`t_${c.field}`) as string | number | null) ?? null;
    const w = get(`w_${c.field}`);
    if (w !== undefined && w !== null) stats.widest.set(c.index, isNumericFormat(c.format) ? displayLength(Number(w), c.format) : Number(w));
  }
  return stats;
}

/** The small path: the whole (small) result converted, its totals and widths computed here. */
export async function readSmall(
  store: Store,
  spec: TableSheetSpec,
  columns: ResolvedColumn[],
  converters: RawConverter[],
  params: QueryParameters,
): Promise<{ rows: CellValue[][]; stats: Stats } | undefined> {
  const rows: CellValue[][] = [];
  const sums = columns.map((c) => (c.total === 'sum' ? new ExactSum() : undefined));
  const widest = new Map<number, number>();
  for await (const chunk of streamRawRows(store, spec.sql, params, spec.where)) {
    if (rows.length + chunk.length > SMALL_RESULT_ROWS) return undefined; // large after all: leave the stream
    for (const raw of chunk) {
      const values: CellValue[] = new Array(columns.length);
      for (let i = 0; i < columns.length; i++) {
        const c = columns[i]!;
        const v: DuckDBValue = raw[c.index]!;
        values[i] = converters[i]!(v);
        sums[i]?.add(v);
        const w = displayLength(values[i]!, c.format);
        if (w > (widest.get(c.index) ?? 0)) widest.set(c.index, w);
      }
      rows.push(values);
    }
  }
  const totals: Stats['totals'] = {};
  columns.forEach((c, i) => {
    if (sums[i]) totals[c.field] = sums[i].value();
  });
  return { rows, stats: { rows: rows.length, totals, widest } };
}

export function fitWidth(c: ResolvedColumn, stats: Stats): number {
  if (c.width > 0) return c.width;
  let content = stats.widest.get(c.index) ?? 0;
  if (c.format === 'date') content = 10;
  if (c.format === 'datetime') content = 16;
  if (c.total === 'sum') content = Math.max(content, displayLength(Number(stats.totals[c.field] ?? 0), c.format));
  if (c.upIsBad) content += 1; // the sign
  // the header wraps onto two lines when it is much longer than the values; +3 leaves room for the filter button
  const header = Math.min(c.header.length, Math.max(content, Math.ceil(c.header.length / 2)));
  // at least 10: exceljs leaves a width of 9 out as "default", and Excel's default (8.43) is too narrow for a filter button
  return Math.min(60, Math.max(10, content + 2, header + 3));
}
