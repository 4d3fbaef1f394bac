import { describe, expect, it } from 'vitest';
import { pageWidths } from '../../../src/report/workbook/page-width.ts';
import { pagePoints } from '../../../src/report/workbook/print-page.ts';

describe('the Summary column widths on paper', () => {
  it('narrows the widest columns first until the columns fit a landscape page, never below 12', () => {
    const w = pageWidths([48, 48, 24, 40, 30, 20, 10], 0);
    expect(w.reduce((a, b) => a + b, 0)).toBe(160);
    expect(w[6]).toBe(10);
    expect(w[5]).toBe(20);
    expect(w[0]).toBe(w[1]);
    expect(Math.min(...pageWidths(Array(20).fill(20), 0))).toBe(12);
  });

  it('widens the last column until the columns hold the widest chart', () => {
    const w = pageWidths([30, 20, 24], 760);
    expect(w.slice(0, 2)).toEqual([30, 20]);
    expect(w.reduce((a, c) => a + c * 7 + 5, 0)).toBeGreaterThanOrEqual(760);
    expect(pageWidths([30, 20, 24], 300)).toEqual([30, 20, 24]);
  });

  it('never narrows a column below its floor (the SIMULATED DATA label stays on one line), narrowing the others', () => {
    const natural = [48, 48, 24, 40, 30, 30, 10];
    expect(pageWidths(natural, 0)[5]).toBeLessThan(28);
    const w = pageWidths(natural, 0, [0, 0, 0, 0, 0, 28]);
    expect(w[5]).toBe(28);
    expect(w.reduce((a, b) => a + b, 0)).toBe(160);
  });
});

describe('how much of a sheet a printed page holds', () => {
  it('holds more of a sheet the wider it is (fit to width scales it down), never more than the page of a narrow one', () => {
    expect(pagePoints(2000)).toBeGreaterThan(pagePoints(1200));
    expect(pagePoints(300)).toBe(pagePoints(100));
    // A4 landscape, 1.1 in of top and bottom margin, less the slack: under the 516 pt the paper measures
    expect(pagePoints(100)).toBeLessThan(516);
  });
});
