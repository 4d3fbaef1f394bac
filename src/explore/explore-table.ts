// The page's figures from the page query's rows (build-query.ts): the groups (top 10 and "other") × periods, each
// group's total, share and change against the previous range of the same length, and the totals – added up as exact
// micro-units (BigInt), so the total row is the sum of the rows and of the CSV's column to the last micro-unit.
import { decimalStringToMicros, microsToDecimalString } from '../util/decimal.ts';
import { TOP_GROUPS } from './build-query.ts';

export interface ExploreGroup {
  /** 1…10 for a named group, 11 for "other". */
  rank: number;
  /** Key and name per grouping (empty for "other"). */
  keys: string[];
  names: (string | null)[];
  /** Exact decimal text per period (in `periods` order); '0.000000' where the group had nothing; null for a unit
   * cost where the period has no quantity. */
  cells: (string | null)[];
  total: string | null;
  /** The figure the change compares: the range's compared days (the whole range unless a day is still loading,
   * coverage.ts); null where the group had none then. */
  compared: string | null;
  /** The previous range's figure for as many days; null where the group had none there. */
  previous: string | null;
  /** Percent of the grand total, 2 decimals (null when the grand total is 0). */
  share: string | null;
  /** Percent change of compared against previous, 1 decimal (null when there was nothing before). */
  change: string | null;
}

export interface ExploreTable {
  periods: string[];
  groups: ExploreGroup[];
  /** Per period, the sum of every group. */
  periodTotals: (string | null)[];
  total: string | null;
  compared: string | null;
  previous: string | null;
  change: string | null;
}

/** a ÷ b in percent, rounded half away from zero to `decimals` places, exactly. */
function percent(a: bigint, b: bigint, decimals: number): string | null {
  if (b === 0n) return null;
  const scale = 10n ** BigInt(decimals);
  const num = a * 100n * scale * 2n;
  const den = b < 0n ? -b : b;
  const signed = b < 0n ? -num : num;
  const q = signed >= 0n ? (signed / den + 1n) / 2n : -((-signed / den + 1n) / 2n);
  const negative = q < 0n;
  const abs = negative ? -q : q;
  const whole = abs / scale;
  const frac = (abs % scale).toString().padStart(decimals, '0');
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${frac}` : ''}`;
}

/** a ÷ b to 6 decimals, half away from zero, exactly; null when b is 0 (no quantity: no unit cost). */
export function divideMicros(a: bigint, b: bigint): bigint | null {
  if (b === 0n) return null;
  const num = a * 1_000_000n * 2n * (b < 0n ? -1n : 1n);
  const den = b < 0n ? -b : b;
  return num >= 0n ? (num / den + 1n) / 2n : -((-num / den + 1n) / 2n);
}

export interface PageRow {
  kind: 'cell' | 'group' | 'quantity' | 'quantity_previous' | 'quantity_compared';
  period_start: string | null;
  rank: number | string;
  k1: string | null;
  n1: string | null;
  k2: string | null;
  n2: string | null;
  v: string | null;
  previous: string | null;
  compared: string | null;
}

export function exploreTable(rows: readonly PageRow[], periods: string[], levels: number): ExploreTable {
  const cost = costTable(rows, periods, levels);
  if (!rows.some((r) => r.kind.startsWith('quantity'))) return cost;
  return unitCostTable(cost, rows);
}

/** Each figure divided by the metric's quantity of its period (of the range, of the previous range). */
function unitCostTable(cost: ExploreTable, rows: readonly PageRow[]): ExploreTable {
  const micros = (s: string | null) => (s === null ? 0n : decimalStringToMicros(s));
  const quantity = cost.periods.map(() => 0n);
  const at = new Map(cost.periods.map((p, i) => [p, i]));
  let previousQuantity = 0n;
  let comparedQuantity = 0n;
  for (const r of rows) {
    if (r.kind === 'quantity') quantity[at.get(r.period_start!)!]! += micros(r.v);
    if (r.kind === 'quantity_previous') previousQuantity += micros(r.v);
    if (r.kind === 'quantity_compared') comparedQuantity += micros(r.v);
  }
  const range = quantity.reduce((a, b) => a + b, 0n);
  const per = (value: string | null, q: bigint) => {
    if (value === null) return null;
    const m = divideMicros(decimalStringToMicros(value), q);
    return m === null ? null : microsToDecimalString(m);
  };
  const changeOf = (now: string | null, before: string | null) => (now === null || before === null ? null : percent(micros(now) - micros(before), micros(before), 1));
  const groups = cost.groups.map((g) => {
    const compared = per(g.compared, comparedQuantity);
    const previous = per(g.previous, previousQuantity);
    return { ...g, cells: g.cells.map((c, i) => per(c, quantity[i]!)), total: per(g.total, range), compared, previous, change: changeOf(compared, previous) };
  });
  const compared = per(cost.compared, comparedQuantity);
  const previous = per(cost.previous, previousQuantity);
  return { periods: cost.periods, groups, periodTotals: cost.periodTotals.map((c, i) => per(c, quantity[i]!)), total: per(cost.total, range), compared, previous, change: changeOf(compared, previous) };
}

function costTable(rows: readonly PageRow[], periods: string[], levels: number): ExploreTable {
  const at = new Map(periods.map((p, i) => [p, i]));
  const byRank = new Map<number, { cells: bigint[]; row?: PageRow }>();
  const entry = (rank: number) => {
    let e = byRank.get(rank);
    if (!e) byRank.set(rank, (e = { cells: periods.map(() => 0n) }));
    return e;
  };
  for (const row of rows) {
    const rank = Number(row.rank);
    if (row.kind === 'cell') {
      const i = at.get(row.period_start!);
      if (i === undefined) throw new Error(`explore: period ${row.period_start} is outside the range`);
      entry(rank).cells[i]! += decimalStringToMicros(row.v!);
    } else if (row.kind === 'group' && (rank <= TOP_GROUPS || row.v !== null || row.previous !== null)) entry(rank).row = row;
  }
  const micros = (s: string | null) => (s === null ? 0n : decimalStringToMicros(s));
  const total = [...byRank.values()].reduce((sum, e) => sum + e.cells.reduce((a, b) => a + b, 0n), 0n);
  const previous = [...byRank.values()].reduce((sum, e) => sum + micros(e.row?.previous ?? null), 0n);
  const compared = [...byRank.values()].reduce((sum, e) => sum + micros(e.row?.compared ?? null), 0n);
  const groups: ExploreGroup[] = [...byRank.entries()]
    .filter(([, e]) => e.row !== undefined)
    .sort(([a], [b]) => a - b)
    .map(([rank, e]) => {
      const row = e.row!;
      const groupTotal = e.cells.reduce((a, b) => a + b, 0n);
      const keys = rank > TOP_GROUPS ? [] : [row.k1 ?? '', row.k2 ?? ''].slice(0, levels);
      const names = rank > TOP_GROUPS ? [] : [row.n1, row.n2].slice(0, levels);
      const before = row.previous === null ? null : micros(row.previous);
      // a group with nothing in the compared days but something before fell by all of it
      const now = micros(row.compared);
      return {
        rank,
        keys,
        names,
        cells: e.cells.map(microsToDecimalString),
        total: microsToDecimalString(groupTotal),
        compared: row.compared === null ? null : microsToDecimalString(now),
        previous: before === null ? null : microsToDecimalString(before),
        share: percent(groupTotal, total, 2),
        change: before === null ? null : percent(now - before, before, 1),
      };
    });
  const periodTotals = periods.map((_, i) => microsToDecimalString([...byRank.values()].reduce((sum, e) => sum + e.cells[i]!, 0n)));
  return {
    periods,
    groups,
    periodTotals,
    total: microsToDecimalString(total),
    compared: microsToDecimalString(compared),
    previous: microsToDecimalString(previous),
    change: percent(compared - previous, previous, 1),
  };
}
