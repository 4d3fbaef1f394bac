import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { findChartFont, renderPng } from '../../../src/report/charts/png.ts';
import { stackedBarsSvg } from '../../../src/report/charts/svg.ts';
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
