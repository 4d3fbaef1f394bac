import { displayPath } from '../../src/util/display-path.ts';
import ExcelJS from 'exceljs';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport, type RenderedReport } from '../../src/report/render.ts';
import { SMALL_RESULT_ROWS } from '../../src/report/workbook/table-stats.ts';
import type { Store } from '../../src/store/database.ts';
import { FIXTURE_REPORT, fixtureStore, testConfig, writeDefinition } from '../helpers/report-fixtures.ts';
import { columnNumbers, columnOf, conditionalRules, expectCents, headerRow, readWorkbook, sheet, sum, totalValue } from '../helpers/workbook-read.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('renderReport with a definition over fixture SQL', () => {
  let dir: string;
  let store: Store;
  let rendered: RenderedReport;
  let wb: ExcelJS.Workbook;
  const config = () => testConfig({ reports: { directory: dir, budget: { monthly: '25000' } }, timeZone: 'Europe/Berlin' });
  const exact = async (sql: string) => (await store.one<{ v: string }>(sql))!.v;

  beforeAll(async () => {
    dir = tempDir('gpuledger-report-').dir;
    store = await fixtureStore(dir);
    writeDefinition(dir, 'fixture', FIXTURE_REPORT);
    rendered = await renderReport({ store, config: config(), report: 'fixture', period: '2026-10', outDir: join(dir, 'out'), now: new Date('2026-11-02T06:00:00Z') });
    wb = await readWorkbook(rendered.path);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('names the file after the report and period and leaves no temp file behind', () => {
    expect(rendered.path).toBe(join(dir, 'out', 'gpuledger-fixture-2026-10.xlsx'));
    expect(readdirSync(join(dir, 'out'))).toEqual(['gpuledger-fixture-2026-10.xlsx']);
  });

  it('writes the sheets in definition order with the About sheet last', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Daily', 'Everything', 'About']);
  });

  it('writes rows with real dates, currency formats and totals equal to the SQL totals', async () => {
    const ws = sheet(wb, 'Daily');
    const h = headerRow(ws, 'Day');
    expect(ws.getRow(1).getCell(1).value).toBe('Daily');
    expect(ws.getRow(2).getCell(1).value).toBe('One row per day and family.');
    const amount = columnOf(ws, h, 'Amount');
    const change = columnOf(ws, h, 'Change');
    const total = await exact(`select sum(amount)::varchar as v from fx_spend where day <= '2026-10-31'`);
    const totalChange = await exact(`select sum(change_amount)::varchar as v from fx_spend where day <= '2026-10-31'`);
    expect(ws.rowCount - h).toBe(93);
    const totals = ws.getRow(h - 1);
    expect(totals.getCell(1).value).toBe('Total');
    expect(totals.getCell(amount).value).toEqual({ formula: `SUM(C${h + 1}:C${h + 93})`, result: Number(total) });
    expect(totalValue(totals.getCell(change))).toBe(Number(totalChange));
    expectCents(sum(columnNumbers(ws, h + 1, amount)), total);
    const first = ws.getRow(h + 1);
    expect(first.getCell(1).value).toEqual(new Date('2026-10-01T00:00:00Z'));
    expect(first.getCell(1).numFmt).toBe('yyyy-mm-dd');
    expect(first.getCell(amount).numFmt).toBe('"$"#,##0.00;-"$"#,##0.00');
    expect(first.getCell(change).numFmt).toBe('+"$"#,##0.00;-"$"#,##0.00;"$"#,##0.00');
    expect(first.getCell(columnOf(ws, h, 'Change %')).numFmt).toBe('+#,##0.0" %";-#,##0.0" %";#,##0.0" %"');
  });

  it('freezes the header, filters the table and fits the columns', () => {
    const ws = sheet(wb, 'Daily');
    const h = headerRow(ws, 'Day');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: h, xSplit: 0 });
    expect(ws.autoFilter).toBe(`A${h}:F${h + 93}`);
    const widths = ws.columns.map((c) => c.width ?? 0);
    expect(widths[0]).toBeGreaterThanOrEqual(10); // a date
    expect(widths[5]).toBeGreaterThanOrEqual('Resource'.length + 2);
    expect(widths.every((w) => w <= 60)).toBe(true);
  });

  it('puts data bars on cost columns and colours changes: up red, down green', () => {
    const ws = sheet(wb, 'Daily');
    const h = headerRow(ws, 'Day');
    const rules = conditionalRules(ws);
    expect(rules.find((r) => r.type === 'dataBar')?.ref).toBe(`C${h + 1}:C${h + 93}`);
    const up = rules.filter((r) => r.operator === 'greaterThan');
    expect(up.map((r) => r.ref)).toEqual([`D${h - 1} D${h + 1}:D${h + 93}`, `E${h + 1}:E${h + 93}`]);
    expect(up.every((r) => r.style?.font?.color?.argb === 'FFC00000')).toBe(true);
    expect(rules.filter((r) => r.operator === 'lessThan').every((r) => r.style?.font?.color?.argb === 'FF00703C')).toBe(true);
  });

  it('derives columns, formats and totals from SQL types when the definition names none', async () => {
    const ws = sheet(wb, 'Everything');
    const h = headerRow(ws, 'Day');
    expect(ws.getRow(h).values).toEqual([undefined, 'Day', 'Family', 'Amount', 'Change amount', 'Change %', 'Resource ID']);
    expect(ws.getRow(h + 1).getCell(1).value).toBeInstanceOf(Date);
    expect(ws.getRow(h + 1).getCell(5).numFmt).toBe('#,##0.0" %";-#,##0.0" %"');
    expect(totalValue(ws.getRow(h - 1).getCell(3))).toBe(Number(await exact(`select sum(amount)::varchar as v from fx_spend where day <= '2026-10-31'`)));
  });

  it('fills the summary with figures, a small table and both charts', () => {
    const ws = sheet(wb, 'Summary');
    expect(ws.getImages()).toHaveLength(2);
    expect(rendered.summary.figures.map((f) => [f.label, f.text, f.note])).toEqual([
      ['Total spend', '$4,477.48', 'change -$19.34'],
      ['Change', '-$19.34', undefined],
      ['Budget', '$25,000.00', undefined],
    ]);
    const texts: unknown[] = [];
    ws.eachRow((row) => texts.push(row.getCell(1).value));
    expect(texts).toContain('Largest resources');
    expect(texts).toContain('Key figures');
    // a decrease is shown green on the summary too
    let changeColor: string | undefined;
    ws.eachRow((row) => {
      if (row.getCell(1).value === 'Change') changeColor = row.getCell(2).font?.color?.argb;
    });
    expect(changeColor).toBe('FF00703C');
  });

  it('records generated-at, time zone, version, database and every query on the About sheet', () => {
    const ws = sheet(wb, 'About');
    const facts = new Map<string, unknown>();
    ws.eachRow((row) => facts.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(facts.get('Generated at')).toBe('2026-11-02 07:00 Europe/Berlin');
    expect(facts.get('Period')).toBe('October 2026 (2026-10-01 to 2026-10-31, UTC days)');
    expect(facts.get('Database'), 'no absolute path of the machine in a mailed workbook').toBe(displayPath(store.path));
    const sheets = new Set<unknown>();
    ws.eachRow((row) => {
      if (typeof row.getCell(3).value === 'string' && /select/i.test(row.getCell(3).value as string)) sheets.add(row.getCell(1).value);
    });
    expect([...sheets]).toEqual(['Summary', 'Daily', 'Everything']);
  });

  it('writes an empty period with a note and zero totals, not a broken formula', async () => {
    const r = await renderReport({ store, config: config(), report: 'fixture', period: '2025-01', outDir: join(dir, 'empty') });
    const ws = sheet(await readWorkbook(r.path), 'Daily');
    const h = headerRow(ws, 'Day');
    expect(ws.getRow(h - 1).getCell(1).value).toBe('Total (no rows)');
    expect(ws.getRow(h - 1).getCell(3).value).toBe(0);
    expect(ws.getRow(h + 1).getCell(1).value).toBe('No rows for this period.');
    expect(ws.autoFilter).toBe(`A${h}:F${h}`);
  });

  it('gives the same rows and totals whether a sheet is read small or streamed large', async () => {
    const big = SMALL_RESULT_ROWS + 5_000;
    const sql = `select i, (i * 0.013 + 0.000001)::decimal(18,6) as amount from range(${big}) t(i) order by i`;
    writeDefinition(
      dir,
      'sizes',
      `title: Sizes\ndefaultPeriod: month_to_date\nmetadataSheet: false\nsheets:\n` +
        `  - { name: Auto, sql: "${sql}" }\n  - { name: Large, large: true, sql: "${sql}" }\n` +
        `  - { name: Small, sql: "select * from (${sql}) where i < 100" }\n`,
    );
    const r = await renderReport({ store, config: config(), report: 'sizes', period: '2026-10', outDir: join(dir, 'sizes') });
    const expected = await exact(`select sum(amount)::varchar as v from (${sql})`);
    expect(r.summary.sheets.map((s) => [s.name, s.rows, s.totals.amount])).toEqual([
      ['Auto', big, expected],
      ['Large', big, expected],
      ['Small', 100, await exact(`select sum(amount)::varchar as v from (${sql}) where i < 100`)],
    ]);
    const rwb = await readWorkbook(r.path);
    for (const name of ['Auto', 'Large']) {
      const ws = sheet(rwb, name);
      const h = headerRow(ws, 'I');
      expect(ws.rowCount - h).toBe(big);
      expectCents(sum(columnNumbers(ws, h + 1, 2)), expected);
    }
  });

  it('does not leave a temp file when rendering fails, and says which sheet failed', async () => {
    writeDefinition(dir, 'broken', `title: B\ndefaultPeriod: month_to_date\nsheets:\n  - { name: A, sql: select 1 as x }\n  - { name: B, sql: select * from no_such_table }\n`);
    await expect(renderReport({ store, config: config(), report: 'broken', period: '2026-10', outDir: join(dir, 'broken') })).rejects.toThrow(
      /broken\.yaml sheets\.2: query failed: Catalog Error: Table with name no_such_table does not exist/,
    );
    expect(existsSync(join(dir, 'broken')) ? readdirSync(join(dir, 'broken')) : []).toEqual([]);
  });
});
