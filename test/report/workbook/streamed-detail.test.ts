// The large table path writes its rows as sheet XML itself (src/report/workbook/row-xml.ts); the small path writes
// them through exceljs. The nightly Detail over ~2,900 rows of two accounts, written both ways in one workbook, must
// read the same to a person: every cell's value and format, every row's height – and the sheet XML is the same text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { renderReport } from '../../../src/report/render.ts';
import { SMALL_RESULT_ROWS } from '../../../src/report/workbook/table-stats.ts';
import type { Store } from '../../../src/store/database.ts';
import { testConfig, writeDefinition } from '../../helpers/report-fixtures.ts';
import { twoAccountStore } from '../../helpers/raw-billing.ts';
import { readWorkbook, sheet } from '../../helpers/workbook-read.ts';

const NIGHTLY = new URL('../../../reports/nightly.yaml', import.meta.url);

describe('the Detail sheet streamed as XML', () => {
  let dir: string;
  let store: Store;

  beforeAll(async () => {
    ({ dir, store } = await twoAccountStore());
  });
  afterAll(async () => {
    await store?.close();
  });

  it('holds the same cells, values and formats as the small path writes for the same rows', async () => {
    const detail = (parse(readFileSync(NIGHTLY, 'utf8')) as { sheets: { name: string; large?: boolean }[] }).sheets.find((s) => s.name === 'Detail')!;
    expect(detail.large).toBe(true);
    writeDefinition(
      dir,
      'detail-both',
      stringify({
        title: 'Detail both ways',
        defaultPeriod: 'month_to_date',
        metadataSheet: false,
        sheets: [
          { ...detail, name: 'Streamed', title: 'Detail', large: true },
          { ...detail, name: 'Small', title: 'Detail', large: false },
        ],
      }),
    );
    const r = await renderReport({ store, config: testConfig({ reports: { directory: dir } }), report: 'detail-both', period: '2026-10', outDir: join(dir, 'out') });
    const [streamed, small] = r.summary.sheets;
    expect(streamed!.rows).toBeGreaterThan(2_000);
    expect(streamed!.rows).toBeLessThanOrEqual(SMALL_RESULT_ROWS); // else the "small" sheet would stream too
    expect(small!.rows).toBe(streamed!.rows);
    expect(small!.totals).toEqual(streamed!.totals);

    const wb = await readWorkbook(r.path);
    const a = sheet(wb, 'Streamed');
    const b = sheet(wb, 'Small');
    expect(a.rowCount).toBe(b.rowCount);
    expect(a.rowCount).toBeGreaterThan(streamed!.rows);
    // what a person sees of a cell: its value (a date as its instant), number format and style; a row adds its height
    let nulls = 0;
    // once: exceljs's columnCount walks every row, and asked per cell it made this comparison quadratic (~20 s)
    const columns = b.columnCount;
    const seen = (ws: typeof a, row: number): string => {
      const r = ws.getRow(row);
      const cells = [];
      for (let col = 1; col <= columns; col++) {
        const c = r.getCell(col);
        if (ws === b && c.value === null) nulls++;
        cells.push([c.address, c.value instanceof Date ? c.value.toISOString() : c.value, c.numFmt, c.style]);
      }
      return JSON.stringify([r.height, cells]);
    };
    const differing: string[] = [];
    for (let row = 1; row <= b.rowCount && differing.length < 3; row++) {
      const [sa, sb] = [seen(a, row), seen(b, row)];
      if (sa !== sb) differing.push(`streamed ${sa}\nsmall    ${sb}`);
    }
    expect(differing).toEqual([]);
    expect(nulls).toBeGreaterThan(100); // the Detail's empty names are part of what is compared

    const files = unzipSync(new Uint8Array(readFileSync(r.path)));
    const sheetData = (part: string) => /<sheetData>.*<\/sheetData>/s.exec(Buffer.from(files[part]!).toString())![0];
    expect(sheetData('xl/worksheets/sheet1.xml')).toBe(sheetData('xl/worksheets/sheet2.xml'));
  });
});
