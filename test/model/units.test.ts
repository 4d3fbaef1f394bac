// Units said once (src/model/units.ts): every column of every rpt_* view has a declared unit that fits its SQL type,
// every column the shipped reports show reads in a declared unit (not a guess from its type), no table shows two
// columns under one heading, and the text of a unit is what its workbook number format shows.
import { DuckDBTypeId } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMN_UNITS, declaredUnit, UNITS, unitText, type Unit } from '../../src/model/index.ts';
import { columnHeading, inferFormat } from '../../src/report/cells/index.ts';
import { NUM_FMT, SIGNED_NUM_FMT } from '../../src/report/cells/styles.ts';
import { loadReportDefinition } from '../../src/report/definition/index.ts';
import { parseReportDefinition } from '../../src/report/definition/load.ts';
import { setReportClock } from '../../src/report/period/index.ts';
import { queryColumns, type QueryColumn, type QueryParameters } from '../../src/report/query.ts';
import { sheetSql } from '../../src/report/report-session.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { copyMigratedStore } from '../helpers/view-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';


/** The SQL types a unit's values may have. */
function fits(unit: Unit, dataType: string): boolean {
  switch (UNITS[unit].kind) {
    case 'number':
      return /^(DECIMAL|DOUBLE|FLOAT|REAL|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U.*INT)/.test(dataType);
    case 'date':
      return dataType === 'DATE';
    case 'datetime':
      return dataType.startsWith('TIMESTAMP');
    case 'boolean':
      return dataType === 'BOOLEAN';
    case 'text':
      return dataType === 'VARCHAR' || dataType === 'JSON';
  }
}

interface Shown {
  where: string;
  field: string;
  header: string | undefined;
  unit: Unit | undefined;
}

describe('units said once', () => {
  let store: Store;
  let params: QueryParameters;

  beforeAll(async () => {
    const path = join(tempDir('gpuledger-report-').dir, 'gpuledger.duckdb');
    await copyMigratedStore(path); // a new file as openStore makes it, copied from the worker's template
    store = await openStore({ path });
    params = (await setReportClock(store, { periodText: '2026-10', defaultPeriod: 'month_to_date', budgetMonthly: '1000' })).params;
  });
  afterAll(async () => {
    await store?.close();
  });

  /** Columns of the rpt_* views without a declared unit, and those whose unit their SQL type cannot hold. */
  async function undeclared(): Promise<{ views: number; missing: string[]; misfit: string[] }> {
    const columns = await store.all<{ view: string; column: string; type: string }>(
      `select table_name as view, column_name as column, data_type as type from information_schema.columns
       where table_name like 'rpt\\_%' escape '\\' order by table_name, ordinal_position`,
    );
    return {
      views: new Set(columns.map((c) => c.view)).size,
      missing: columns.filter((c) => declaredUnit(c.column) === undefined).map((c) => `${c.view}.${c.column} (${c.type})`),
      misfit: columns.filter((c) => declaredUnit(c.column) !== undefined && !fits(COLUMN_UNITS[c.column]!, c.type)).map((c) => `${c.view}.${c.column} is ${c.type}, declared ${COLUMN_UNITS[c.column]}`),
    };
  }

  it('declares a unit for every column of every rpt_* view, of a kind its SQL type holds', async () => {
    const { views, missing, misfit } = await undeclared();
    expect(views).toBeGreaterThan(25);
    expect(missing, 'add these columns to COLUMN_UNITS in src/model/units.ts').toEqual([]);
    expect(misfit, 'a name means one unit in every view: rename the column or fix its unit').toEqual([]);
  });

  it('names a report view column added without a unit, and one whose type its unit cannot hold', async () => {
    await store.run(`create or replace temp view rpt_units_probe as select 1.5::decimal(18,2) as burn_rate_per_fortnight, 'x' as amount`);
    try {
      const { missing, misfit } = await undeclared();
      expect(missing).toEqual(['rpt_units_probe.burn_rate_per_fortnight (DECIMAL(18,2))']);
      expect(misfit).toEqual(['rpt_units_probe.amount is VARCHAR, declared usd']);
    } finally {
      await store.run('drop view rpt_units_probe');
    }
  });

  it.each(['nightly', 'finance-monthly'])('shows every column of the %s report in a declared unit, under a heading of its own', async (name) => {
    const def = loadReportDefinition(name, undefined);
    const shown: Shown[] = [];
    const typed = new Map<string, QueryColumn>();
    const columnsOf = async (sql: string, where: string) => {
      const cols = await queryColumns(store, sql, params, where);
      for (const c of cols) typed.set(`${where}|${c.name}`, c);
      return cols;
    };
    const headings: string[] = [];
    for (const sheet of def.sheets) {
      if (sheet.kind === 'table') {
        const where = `${name} ${sheet.name}`;
        const cols = await columnsOf(sheetSql(sheet), where);
        const defs = sheet.columns ?? cols.map((c) => ({ field: c.name, header: undefined, unit: undefined }));
        for (const d of defs) shown.push({ where, field: d.field, header: d.header ?? columnHeading(d.field), unit: d.unit });
        headings.push(...duplicates(where, defs.map((d) => d.header ?? columnHeading(d.field))));
        continue;
      }
      for (const [j, block] of sheet.blocks.entries()) {
        const where = `${name} ${sheet.name} blocks.${j + 1} (${block.title})`;
        const cols = await columnsOf(block.sql, where);
        if (block.kind === 'table') {
          const defs = block.columns ?? cols.map((c) => ({ field: c.name, header: undefined, unit: undefined }));
          for (const d of defs) shown.push({ where, field: d.field, header: d.header, unit: d.unit });
          headings.push(...duplicates(where, defs.map((d) => d.header ?? columnHeading(d.field))));
          continue;
        }
        for (const item of block.items) {
          shown.push({ where, field: item.field, header: item.label, unit: item.unit });
          for (const [, field] of (item.note ?? '').matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) shown.push({ where, field: field!, header: `note of ${item.label}`, unit: undefined });
        }
      }
    }
    expect(shown.length).toBeGreaterThan(60);
    const undeclared = shown.filter((s) => (s.unit ?? declaredUnit(s.field)) === undefined).map((s) => `${s.where}: ${s.field}`);
    expect(undeclared, 'declare these in src/model/units.ts (or give the column a unit: in the definition)').toEqual([]);
    // the declared unit is the one the renderers use: it fits the column's type, so inferFormat does not fall back
    const overruled = shown
      .filter((s) => s.unit === undefined)
      .filter((s) => {
        const c = typed.get(`${s.where}|${s.field}`);
        return c !== undefined && c.typeId !== DuckDBTypeId.SQLNULL && inferFormat(c.typeId, s.field) !== declaredUnit(s.field);
      })
      .map((s) => `${s.where}: ${s.field} is ${DuckDBTypeId[typed.get(`${s.where}|${s.field}`)!.typeId]}, declared ${declaredUnit(s.field)}`);
    expect(overruled).toEqual([]);
    expect(headings, 'two columns of one table under the same heading').toEqual([]);
  });
});

function duplicates(where: string, headers: string[]): string[] {
  return headers.filter((h, i) => headers.indexOf(h) !== i).map((h) => `${where}: '${h}'`);
}

describe('a unit in a report definition', () => {
  it('takes unit:, and the older format: (integer meaning count), naming the key a bad value is under', () => {
    const def = parseReportDefinition(
      `title: T\ndefaultPeriod: month_to_date\nsheets:\n  - name: S\n    sql: select 1 as n, 2.5 as h, 3 as k\n    columns:\n      - { field: n, format: integer }\n      - { field: h, unit: hours }\n      - { field: k, format: usd }\n`,
      '/somewhere/reports/t.yaml',
    );
    const sheet = def.sheets[0]!;
    expect(sheet.kind === 'table' && sheet.columns!.map((c) => [c.field, c.unit])).toEqual([['n', 'count'], ['h', 'hours'], ['k', 'usd']]);
    expect(() => parseReportDefinition(`title: T\ndefaultPeriod: month_to_date\nsheets:\n  - name: S\n    sql: select 1 as n\n    columns:\n      - { field: n, unit: furlongs }\n`, '/x/t.yaml')).toThrow(
      /t\.yaml: sheets\.1\.columns\.1\.unit: Invalid option: expected one of "usd"\|"usd_per_hour"/,
    );
  });
});

describe('unit text', () => {
  it('writes each unit with its prefix, decimals and suffix, rounding the exact decimal half away from zero', () => {
    expect(unitText('1234567.005000', 'usd')).toBe('$1,234,567.01');
    expect(unitText('-12.345', 'usd')).toBe('-$12.35');
    expect(unitText('-0.004999', 'usd')).toBe('$0.00');
    expect(unitText('12.3', 'usd', { signed: true })).toBe('+$12.30');
    expect(unitText('38.012282', 'usd_per_hour')).toBe('$38.01/h');
    expect(unitText('0.029609788', 'usd_per_unit')).toBe('$0.0296');
    expect(unitText('0.079262650', 'usd_per_unit')).toBe('$0.0793');
    expect(unitText('47.5', 'percent')).toBe('47.5 %');
    expect(unitText(5749.2, 'percent', { signed: true })).toBe('+5,749.2 %');
    expect(unitText('180.06', 'hours')).toBe('180.1 h');
    expect(unitText('8358.88', 'days_from_hours')).toBe('348 days');
    expect(unitText('100.000000', 'quantity')).toBe('100.00');
    expect(unitText('12', 'count')).toBe('12');
    expect(unitText(0.35, 'ratio')).toBe('0.35');
    expect(unitText(2.5, 'number')).toBe('2.5');
    expect(unitText(1e-7, 'usd_per_unit')).toBe('$0.0000');
    expect(unitText('not a number', 'usd')).toBe('not a number');
  });

  it('gives the workbook the number format that shows the same text', () => {
    expect(NUM_FMT.usd).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(NUM_FMT.usd_per_hour).toBe('"$"#,##0.00"/h";-"$"#,##0.00"/h"');
    expect(NUM_FMT.usd_per_unit).toBe('"$"#,##0.0000;-"$"#,##0.0000');
    expect(NUM_FMT.percent).toBe('#,##0.0" %";-#,##0.0" %"');
    expect(NUM_FMT.hours).toBe('#,##0.0" h";-#,##0.0" h"');
    expect(NUM_FMT.days_from_hours).toBe('#,##0" days";-#,##0" days"');
    expect(NUM_FMT.count).toBe('#,##0;-#,##0');
    expect(SIGNED_NUM_FMT.percent).toBe('+#,##0.0" %";-#,##0.0" %";#,##0.0" %"');
    expect(NUM_FMT.date).toBe('yyyy-mm-dd');
  });
});
