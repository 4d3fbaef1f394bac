// How many rows a table's query returns and the exact totals of its summed columns, in one aggregate over the query
// (DuckDB sums the DECIMALs exactly): what the page's totals row and its "first N of M rows" say without reading
// every row. The workbook's first pass (workbook/table-stats.ts) asks the same and the widest values besides.
import type { Store } from '../store/database.ts';
import { quotedIdentifier } from '../util/duckdb-api.ts';
import { bareSql, queryAll, type QueryParameters } from './query.ts';
import type { ResolvedColumn } from './table-columns.ts';

export interface ResultTotals {
  rows: number;
  totals: Record<string, string | number | null>;
}

export async function resultTotals(store: Store, q: { sql: string; where: string }, columns: readonly ResolvedColumn[], count: number, params: QueryParameters): Promise<ResultTotals> {
  const aliases = Array.from({ length: count }, (_, i) => `c${i}`);
  const sums = columns.filter((c) => c.total === 'sum').map((c) => `sum(c${c.index}) as ${quotedIdentifier(`t_${c.field}`)}`);
  const sql = `select ${['count(*) as n', ...sums].join(', ')} from (\n${bareSql(q.sql)}\n) as q(${aliases.join(', ')})`;
  const { columns: names, rows } = await queryAll(store, sql, params, q.where);
  const row = rows[0] ?? [];
  const get = (name: string) => row[names.findIndex((c) => c.name === name)];
  const totals: ResultTotals['totals'] = {};
  for (const c of columns) if (c.total === 'sum') totals[c.field] = (get(`t_${c.field}`) as string | number | null) ?? null;
  return { rows: Number(get('n') ?? 0), totals };
}
