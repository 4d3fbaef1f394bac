import { describe, expect, it } from 'vitest';
import { CELL_MAX_CHARS, fitCell, withinCell } from '../../../src/report/cells/index.ts';
import { toCellValue } from '../../../src/report/cells/values.ts';

describe('a text longer than a spreadsheet cell holds', () => {
  it('is cut to 32,767 characters with a visible mark saying how long it was', () => {
    const name = 'Axolotl fine-tune '.padEnd(40_000, 'x');
    const cut = withinCell(name);
    expect(cut).toHaveLength(CELL_MAX_CHARS);
    expect(cut.endsWith('x… [cut: 40,000 characters]')).toBe(true);
    expect(name.startsWith(cut.slice(0, -'… [cut: 40,000 characters]'.length))).toBe(true);
    expect(toCellValue(name, 'text', 'UTC')).toBe(cut);
  });

  it('keeps a text that fits whole, and numbers and dates as they are', () => {
    const fits = 'y'.repeat(CELL_MAX_CHARS);
    expect(withinCell(fits)).toBe(fits);
    expect(fitCell(12.5)).toBe(12.5);
    expect(fitCell(null)).toBe(null);
  });

  it('never cuts a character in half', () => {
    const mark = '… [cut: 40,000 characters]';
    const end = CELL_MAX_CHARS - mark.length;
    // a surrogate pair (an emoji) straddling the cut point
    const name = 'a'.repeat(end - 1) + '😀' + 'b'.repeat(40_000 - end - 1);
    const cut = withinCell(name);
    expect(cut).toBe('a'.repeat(end - 1) + mark);
    expect(cut.length).toBeLessThanOrEqual(CELL_MAX_CHARS);
  });
});
