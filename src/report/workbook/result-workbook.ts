// `query --format xlsx`: the result as one sheet of typed cells – numbers as numbers, dates and instants as dates,
// text as text, booleans as booleans – for an analyst's next step. It is data, so nothing is neutralised (a text
// starting with "=" is a text cell, never a formula: exceljs writes a string as a string); only the 32,767-character
// cell limit applies (cell-limit.ts). A column's number format is its unit where the column name has one
// (src/model/units.ts), and the money format for any other DECIMAL: DECIMAL is how the store holds money (STYLE.md §5).
import ExcelJS from 'exceljs';
import { rmSync } from 'node:fs';
import { declaredUnit, isNumberUnit } from '../../model/index.ts';
import { moveIntoPlace, temporaryBeside } from '../../outputs/atomic-file.ts';
import type { TypedResult } from '../../query/run-query.ts';
import { DuckDBTypeId, JsonDuckDBValueConverter, type DuckDBType, type DuckDBValue } from '../../util/duckdb-api.ts';
import { NUM_FMT, withinCell } from '../cells/index.ts';

type Cell = string | number | boolean | Date | null;

const INTEGERS = new Set([
  DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER, DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT, DuckDBTypeId.UHUGEINT,
]);
const FLOATS = new Set([DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.DECIMAL]);
const INSTANTS = new Set([DuckDBTypeId.TIMESTAMP, DuckDBTypeId.TIMESTAMP_TZ, DuckDBTypeId.TIMESTAMP_S, DuckDBTypeId.TIMESTAMP_MS, DuckDBTypeId.TIMESTAMP_NS]);

/** One value as its cell: DuckDB's JSON form is exact text for DECIMAL, big integers and instants, read here once. */
function cellOf(value: DuckDBValue, type: DuckDBType): Cell {
  if (value === null) return null;
  const json = JsonDuckDBValueConverter(value, type, JsonDuckDBValueConverter);
  if (json === null) return null;
  if (INTEGERS.has(type.typeId) || FLOATS.has(type.typeId)) return typeof json === 'number' ? json : Number(json);
  if (type.typeId === DuckDBTypeId.BOOLEAN) return Boolean(json);
  // a UTC day and an instant (the store's clock is UTC, database.ts): Excel dates carry no zone, so they read in UTC
  if (type.typeId === DuckDBTypeId.DATE) return new Date(`${String(json)}T00:00:00Z`);
  if (INSTANTS.has(type.typeId)) return new Date(String(json).replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  return withinCell(typeof json === 'string' ? json : JSON.stringify(json));
}

function numberFormat(name: string, type: DuckDBType): string | undefined {
  const unit = declaredUnit(name);
  if (unit !== undefined && isNumberUnit(unit) && (INTEGERS.has(type.typeId) || FLOATS.has(type.typeId))) return NUM_FMT[unit];
  if (type.typeId === DuckDBTypeId.DECIMAL) return NUM_FMT.usd;
  if (type.typeId === DuckDBTypeId.DATE) return NUM_FMT.date;
  if (INSTANTS.has(type.typeId)) return 'yyyy-mm-dd hh:mm:ss';
  return undefined;
}

/** Write `result` to `target` (already checked by checkFileOutput) as a one-sheet workbook, atomically. */
export async function writeXlsxResult(result: TypedResult, target: string, dbPath?: string): Promise<void> {
  const tmp = temporaryBeside(target, dbPath);
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet('result', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = result.names.map((name, i) => {
      const numFmt = numberFormat(name, result.types[i]!);
      return { header: withinCell(name), key: `c${i}`, width: Math.min(40, Math.max(10, name.length + 2)), style: numFmt ? { numFmt } : {} };
    });
    sheet.getRow(1).font = { bold: true };
    for (const row of result.rows) sheet.addRow(row.map((value, i) => cellOf(value, result.types[i]!))).commit();
    sheet.commit();
    await workbook.commit();
    moveIntoPlace(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
