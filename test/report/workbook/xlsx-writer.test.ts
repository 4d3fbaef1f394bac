import type ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { findChartFont, renderPng } from '../../../src/report/charts/png.ts';
import { stackedBarsSvg } from '../../../src/report/charts/svg.ts';
import type { CellValue } from '../../../src/report/cells/index.ts';
import { createXlsxWriter } from '../../../src/report/workbook/xlsx-writer.ts';

import { conditionalRules, readWorkbook } from '../../helpers/workbook-read.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

describe('the streaming workbook writer', () => {
  it('embeds images on a streamed sheet, adds plain data bars, and stays a valid package', async () => {
    const path = join(tempDir('gpuledger-report-').dir, 'w.xlsx');
    const font = findChartFont();
    const png = renderPng(stackedBarsSvg('t', { days: ['2026-10-01'], series: [{ label: 'Pod', values: [1] }] }, { width: 300, height: 200, font: font.family }), font);
    const w = createXlsxWriter(path, { creator: 'test' });
    const first = w.addSheet('Charts', { showGridLines: false });
    first.addRow(['above the charts']).commit();
    w.addImages(first, [
      { png, col: 0, row: 2, width: 300, height: 200, name: 'one' },
      { png, col: 5, row: 2, width: 150, height: 100, name: 'two' },
    ]);
    first.commit();
    const data = w.addSheet('Data', { freeze: { rows: 1 } });
    data.addRow(['amount']).commit();
    for (let i = 0; i < 5000; i++) {
      data.addRow([i / 100]).commit();
      if (i % 1000 === 0) await w.drain(data);
    }
    w.addDataBar(data, 'A2:A5001', 'FF5B9BD5');
    data.commit();
    await w.commit();

    const files = unzipSync(new Uint8Array(readFileSync(path)));
    const types = Buffer.from(files['[Content_Types].xml']!).toString();
    expect(types).toContain('<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>');
    expect(types).toContain('<Default Extension="png" ContentType="image/png"/>');
    const sheet1 = Buffer.from(files['xl/worksheets/sheet1.xml']!).toString();
    expect(sheet1).toMatch(/<drawing r:id="rId\d+"\/><\/worksheet>$/);
    const sheet2 = Buffer.from(files['xl/worksheets/sheet2.xml']!).toString();
    expect(sheet2).toContain('<cfRule type="dataBar" priority="1000"><dataBar><cfvo type="min"/><cfvo type="max"/><color rgb="FF5B9BD5"/></dataBar></cfRule>');
    expect(sheet2).not.toContain('x14:id');

    const wb = await readWorkbook(path);
    const images = wb.getWorksheet('Charts')!.getImages();
    expect(images).toHaveLength(2);
    expect(images.map((i) => [i.range.tl.nativeCol, i.range.tl.nativeRow])).toEqual([[0, 2], [5, 2]]);
    const media = (wb as unknown as { media: { buffer: Buffer }[] }).media;
    expect(media[0]!.buffer.equals(png)).toBe(true);
    expect(conditionalRules(wb.getWorksheet('Data')!).map((r) => r.type)).toEqual(['dataBar']);
    expect(wb.getWorksheet('Data')!.getRow(5001).getCell(1).value).toBe(49.99);
  });
});

describe('raw rows (the large table path)', () => {
  // one style object per column, as table-sheet.ts assigns them: text, date, signed currency, wrapped text, plain
  const styles: Partial<ExcelJS.Style>[] = [
    {},
    { numFmt: 'yyyy-mm-dd' },
    { numFmt: '+"$"#,##0.00;-"$"#,##0.00;"$"#,##0.00' },
    { alignment: { wrapText: true, vertical: 'top' } },
    {},
    { alignment: { horizontal: 'center' } },
  ];
  const rows: { values: CellValue[]; height?: number }[] = [
    { values: [null, new Date('2026-10-01T00:00:00Z'), 12.34, 'short', 7, 'Yes'] },
    { values: ['a & b <c> "d" \'e\'', new Date('2026-10-31T13:45:00Z'), -0.000001, 'x'.repeat(80), -0, true], height: 45 },
    { values: ['\u0001control\u007f and tab\tnewline\n', null, 1e21, '', 1e-7, false] },
    { values: [null, null, null, null, null, null] },
    { values: [null, null, null, null, null, null], height: 30 },
    { values: ['€ 日本 ✓', new Date('1969-12-31T00:00:00Z'), 20029019.803933, null, Number.NaN, null] },
  ];

  async function sheetParts(write: (w: ReturnType<typeof createXlsxWriter>, ws: ExcelJS.Worksheet) => void): Promise<{ sheet: string; styles: string }> {
    const path = join(tempDir('gpuledger-report-').dir, 'r.xlsx');
    const w = createXlsxWriter(path, { creator: 'test' });
    const ws = w.addSheet('Rows', { freeze: { rows: 1 } });
    ws.columns = styles.map((_, i) => ({ key: `c${i}`, width: 12 }));
    const header = ws.getRow(1);
    styles.forEach((_, i) => (header.getCell(i + 1).value = `h${i}`));
    header.commit();
    write(w, ws);
    ws.commit();
    await w.commit();
    const files = unzipSync(new Uint8Array(readFileSync(path)));
    return { sheet: Buffer.from(files['xl/worksheets/sheet1.xml']!).toString(), styles: Buffer.from(files['xl/styles.xml']!).toString() };
  }

  it('writes the same sheet and styles XML as exceljs rows of the same values', async () => {
    const viaExceljs = await sheetParts((_, ws) => {
      for (const r of rows) {
        const row = ws.addRow(r.values);
        styles.forEach((s, i) => (row.getCell(i + 1).style = s));
        if (r.height) row.height = r.height;
        row.commit();
      }
      ws.addRow(['after']).commit();
    });
    const viaRaw = await sheetParts((w, ws) => {
      const raw = w.rawRows(ws, styles);
      for (const r of rows) raw.add(r.values, r.height);
      raw.flush();
      ws.addRow(['after']).commit();
    });
    expect(viaRaw.sheet).toBe(viaExceljs.sheet);
    expect(viaRaw.styles).toBe(viaExceljs.styles);
    // what is compared holds the cases: escaped text, a skipped empty row, a tall empty row, the row after
    expect(viaRaw.sheet).toContain('<v>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</v>');
    expect(viaRaw.sheet).not.toContain('<row r="5"');
    expect(viaRaw.sheet).toContain('<row r="6" ht="30" customHeight="1"');
    expect(viaRaw.sheet).toContain('<row r="8" spans="1:1" x14ac:dyDescent="0.25"><c r="A8" t="str"><v>after</v></c></row>');
  });

  it('refuses to start while exceljs rows of the sheet are not yet written', async () => {
    const w = createXlsxWriter(join(tempDir('gpuledger-report-').dir, 'p.xlsx'), { creator: 'test' });
    const ws = w.addSheet('Rows');
    ws.addRow(['pending']);
    expect(() => w.rawRows(ws, [{}])).toThrow(/not yet committed/);
  });
});
