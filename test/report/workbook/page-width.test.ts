import { describe, expect, it } from 'vitest';
import { pageWidths } from '../../../src/report/workbook/page-width.ts';

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
});
