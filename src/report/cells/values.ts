// From DuckDB's exact JSON values to cell values. Money arrives as a DECIMAL string and becomes a number only here,
// at the cell (STYLE.md §5); DATE becomes a real Excel date; a timestamp becomes the wall-clock time of the
// configured time zone (STYLE.md §7: a time zone appears only where a person reads a date). NULL stays empty.
import { DuckDBTypeId } from '../../util/duckdb-api.ts';
import { declaredUnit, UNITS, unitSpec, type NumberUnit, type Unit } from '../../model/index.ts';
import type { ColumnKind } from '../../util/table-text.ts';
import { HAS_OFFSET, parseTimestamp, wallClock } from '../../util/timestamps.ts';
import { parseDay } from '../../util/utc-days.ts';
import { fitCell } from './cell-limit.ts';
import type { ColumnFormat } from './styles.ts';

export type CellValue = string | number | boolean | Date | null;

/** The format a column gets when the definition does not say: its declared unit (src/model/units.ts), else from its SQL type and name. */
export function inferFormat(typeId: DuckDBTypeId, name: string): ColumnFormat {
  const declared = declaredUnit(name);
  const fromType = typeFormat(typeId, name);
  // a declared unit holds when the column is of its kind: a query may reuse a name for something else (text as 'amount')
  return declared !== undefined && UNITS[declared].kind === kindOf(fromType) ? declared : fromType;
}

/**
 * The format of a column known by its name and how it prints (serve's view and SQL pages): its declared unit when
 * that is a number unit and the column is a number, else a plain number or text.
 */
export function printedFormat(name: string, kind: ColumnKind): ColumnFormat {
  if (kind !== 'exact-number' && kind !== 'number') return 'text';
  const declared = declaredUnit(name);
  return declared !== undefined && UNITS[declared].kind === 'number' ? declared : 'number';
}

function kindOf(format: Unit): string {
  return unitSpec(format).kind;
}

function typeFormat(typeId: DuckDBTypeId, name: string): ColumnFormat {
  const pct = /(_pct|_percent)$/.test(name);
  switch (typeId) {
    case DuckDBTypeId.DATE:
      return 'date';
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return 'datetime';
    case DuckDBTypeId.DECIMAL:
      // money is DECIMAL everywhere in gpuledger; percentages are named *_pct (views-contract.md)
      return pct ? 'percent' : 'usd';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
      return pct ? 'percent' : 'count';
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return pct ? 'percent' : 'number';
    case DuckDBTypeId.BOOLEAN:
      return 'boolean';
    default:
      return 'text';
  }
}

export { HAS_OFFSET, parseTimestamp, wallClock };

/** Convert one JSON value (getRowsJson) to what the cell holds for the column's format, text cut to fit a cell. */
export function toCellValue(value: unknown, format: ColumnFormat, timeZone: string): CellValue {
  return fitCell(convert(value, format, timeZone));
}

function convert(value: unknown, format: ColumnFormat, timeZone: string): CellValue {
  if (value === null || value === undefined) return null;
  const spec = unitSpec(format);
  if (spec.kind === 'number') {
    // a duration stored in hours and read in days holds days in the cell, so the format shows what the text says
    const divisor = spec.divisor ?? 1;
    if (typeof value === 'number') return value / divisor;
    if (typeof value === 'string') {
      // a DECIMAL/BIGINT string: its nearest double is exactly what the cell can hold
      const n = Number(value);
      if (Number.isFinite(n) && value.trim() !== '') return n / divisor;
    }
    return String(value); // never a silent 0 (STYLE.md §6): show what came
  }
  switch (spec.kind) {
    case 'date': {
      if (typeof value !== 'string') return String(value);
      const d = parseDay(value);
      if (d) return d;
      const t = parseTimestamp(value);
      if (!t) return value;
      const w = wallClock(t, timeZone);
      return new Date(Date.UTC(w.getUTCFullYear(), w.getUTCMonth(), w.getUTCDate()));
    }
    case 'datetime': {
      if (typeof value !== 'string') return String(value);
      const t = parseTimestamp(value) ?? parseDay(value);
      if (!t) return value;
      // a TIMESTAMPTZ (with offset) is an instant: shown on the configured clock; a naive TIMESTAMP already is a
      // wall-clock time (e.g. `bucket_start at time zone 'UTC'`) and is shown as it is
      return HAS_OFFSET.test(value) ? wallClock(t, timeZone) : t;
    }
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
    case 'text':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** Shown length of a value, for column widths. */
export function displayLength(value: CellValue, format: ColumnFormat): number {
  if (value === null) return 0;
  if (value instanceof Date) return format === 'datetime' ? 16 : 10;
  if (typeof value === 'number') {
    const abs = Math.abs(value);
    const digits = Math.max(1, Math.floor(Math.log10(abs >= 1 ? abs : 1)) + 1);
    const groups = Math.floor((digits - 1) / 3);
    const spec = unitSpec(format);
    if (spec.kind !== 'number') return digits + groups + 1;
    const u = spec as NumberUnit;
    // sign, prefix, point and decimals, suffix
    return 1 + digits + groups + (u.prefix?.length ?? 0) + (u.decimals > 0 ? u.decimals + 1 : 0) + (u.suffix?.length ?? 0);
  }
  const s = String(value);
  const nl = s.indexOf('\n');
  return nl >= 0 ? nl : s.length;
}
