import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { niceTicks, usdShort } from '../../../src/report/charts/axes.ts';
import { findChartFont, renderPng } from '../../../src/report/charts/png.ts';
import { cumulativeSvg, stackedBarsSvg } from '../../../src/report/charts/svg.ts';

function darkPixels(svg: string): number {
  const pixels = new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
  let n = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 128) n++;
  return n;
}

describe('charts', () => {
  const font = findChartFont();

  it('finds a font that renders text (DejaVu Sans or another installed sans-serif)', () => {
    expect(font.textRenders).toBe(true);
    expect(font.files.length > 0 || font.source === 'system fonts').toBe(true);
  });

  it('draws text into the PNG: a label-only chart is not blank', () => {
    const size = { width: 400, height: 200, font: font.family };
    const empty = stackedBarsSvg('Nothing here', { days: [], series: [] }, size);
    expect(empty).toContain('No data for this period');
    const png = renderPng(empty, font);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // without a font the same SVG has no dark pixels at all; with it, the title and note are drawn
    expect(darkPixels(empty)).toBe(0);
    const withFont = new Resvg(empty, { font: { loadSystemFonts: false, fontFiles: font.files, defaultFontFamily: font.family } }).render().pixels;
    let dark = 0;
    for (let i = 0; i < withFont.length; i += 4) if (withFont[i]! < 160) dark++;
    expect(dark).toBeGreaterThan(200);
  });

  it('stacks bars per day with a currency axis and a legend per series', () => {
    const svg = stackedBarsSvg(
      'Daily spend',
      { days: ['2026-10-01', '2026-10-02'], series: [{ label: 'Pod', values: [100, 50] }, { label: 'Storage', values: [20, 0] }] },
      { width: 600, height: 300, font: 'DejaVu Sans' },
    );
    expect(svg.match(/<rect x=/g)).toHaveLength(3 + 2); // 3 bar segments (a zero is not drawn) + 2 legend boxes
    expect(svg).toContain('>$125<'); // the axis reaches the next nice tick above the tallest stack ($120)
    expect(svg).toContain('>Oct 1<');
    expect(svg).toContain('>Storage<');
  });

  it('draws actual, forecast with its range, and the budget on the cumulative chart', () => {
    const svg = cumulativeSvg(
      'Cumulative',
      {
        days: ['2026-11-01', '2026-11-02', '2026-11-03'],
        actual: [10, 25, null],
        forecast: [null, null, 40],
        low: [null, null, 35],
        high: [null, null, 45],
        budget: 50,
      },
      { width: 600, height: 300, font: 'DejaVu Sans' },
    );
    for (const label of ['Actual', 'Forecast', 'Forecast range', 'Budget', '$25.00', 'forecast $40.00', 'budget $50.00']) expect(svg).toContain(`>${label}<`);
  });

  it('picks nice ticks and short currency labels', () => {
    expect(niceTicks(0, 9_300)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    expect(niceTicks(0, 0)).toEqual([0, 0.2, 0.4, 0.6000000000000001, 0.8, 1].map((x) => Number(x.toPrecision(12))));
    expect([0, 850, 1200, 12_000, 1_500_000].map(usdShort)).toEqual(['$0', '$850', '$1.2k', '$12k', '$1.5M']);
  });
});
