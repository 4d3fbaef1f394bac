// What changed since a moment: the view's long-form cells (csvQuery: per period and group) read twice – once on the
// figures as loaded then (as-of.ts, rebuilt from the restatement log) and once now – and compared as exact
// micro-units, so only the periods and groups whose figure moved are listed, each with before, now and the difference.
// The differences add up to the move of the view's total.
import type { Store } from '../store/database.ts';
import { columnsOf } from '../query/column-kinds.ts';
import { decimalStringToMicros, microsToDecimalString } from '../util/decimal.ts';
import type { Column, Table } from '../util/table-text.ts';
import { withFiguresAsOf } from './as-of.ts';
import { csvQuery } from './build-query.ts';
import type { ExploreRequest } from './request.ts';

export interface ChangedCell {
  period: string;
  keys: string[];
  names: (string | null)[];
  /** Exact decimal text; null where the group had nothing in the period (then, or now). */
  before: string | null;
  now: string | null;
  difference: string;
}

export interface Changes {
  since: { text: string; at: string };
  /** The cells whose figure moved, by period, then keys. */
  cells: ChangedCell[];
  /** The whole view's total then and now, and its move (the sum of the differences). */
  before: string;
  now: string;
  difference: string;
  /** The CSV's leading columns (period_start, each grouping's key and name) and the metric's column name. */
  columns: Column[];
  valueColumn: string;
}

interface Read {
  columns: Column[];
  cells: Map<string, { period: string; keys: string[]; names: (string | null)[]; micros: bigint }>;
}

async function readCells(store: Store, r: ExploreRequest, levels: number): Promise<Read> {
  const q = csvQuery({ ...r, asOf: undefined, changedSince: undefined });
  const reader = await store.connection.runAndReadAll(q.sql, q.params);
  const rows = reader.getRowsJson() as (string | null)[][];
  const cells: Read['cells'] = new Map();
  for (const row of rows) {
    const keys = Array.from({ length: levels }, (_, i) => row[1 + 2 * i] ?? '');
    const names = Array.from({ length: levels }, (_, i) => row[2 + 2 * i] ?? null);
    const period = row[0]!;
    const value = row[1 + 2 * levels];
    cells.set(JSON.stringify([period, ...keys]), { period, keys, names, micros: value === null || value === undefined ? 0n : decimalStringToMicros(value) });
  }
  return { columns: columnsOf(reader.columnNames(), reader.columnTypes()), cells };
}

export async function changesSince(store: Store, r: ExploreRequest): Promise<Changes> {
  const since = r.changedSince;
  if (since === undefined) throw new Error('changesSince: the request has no changed_since');
  const levels = r.by.length;
  const then = await withFiguresAsOf(store, since.at, () => readCells(store, r, levels));
  const now = await readCells(store, r, levels);
  const cells: ChangedCell[] = [];
  let before = 0n;
  let after = 0n;
  for (const key of new Set([...then.cells.keys(), ...now.cells.keys()])) {
    const a = then.cells.get(key);
    const b = now.cells.get(key);
    before += a?.micros ?? 0n;
    after += b?.micros ?? 0n;
    const moved = (b?.micros ?? 0n) - (a?.micros ?? 0n);
    if (moved === 0n) continue;
    // names are inventory, as loaded now; a group gone since keeps the name it had
    const shown = (b ?? a)!;
    cells.push({
      period: shown.period,
      keys: shown.keys,
      names: shown.names,
      before: a === undefined ? null : microsToDecimalString(a.micros),
      now: b === undefined ? null : microsToDecimalString(b.micros),
      difference: microsToDecimalString(moved),
    });
  }
  const order = (c: ChangedCell) => [c.period, ...c.keys];
  cells.sort((x, y) => {
    const [a, b] = [order(x), order(y)];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  });
  const columns = now.columns.length > 0 ? now.columns : then.columns;
  return {
    since,
    cells,
    before: microsToDecimalString(before),
    now: microsToDecimalString(after),
    difference: microsToDecimalString(after - before),
    columns: columns.slice(0, -1),
    valueColumn: columns.at(-1)!.name,
  };
}

/** The changes in long form: the view's CSV columns, then `<metric>_before`, `_now` and `_difference`, exact. */
export function changesTable(c: Changes): Table {
  const exact = (name: string): Column => ({ name: `${c.valueColumn}_${name}`, kind: 'exact-number' });
  return {
    columns: [...c.columns, exact('before'), exact('now'), exact('difference')],
    rows: c.cells.map((cell) => [cell.period, ...cell.keys.flatMap((k, i) => [k, cell.names[i] ?? null]), cell.before, cell.now, cell.difference]),
  };
}
