import { describe, expect, it } from 'vitest';
import { formulaSafeText } from '../../src/util/csv-cell.ts';
import { csvLine, renderOutput, type Table } from '../../src/util/table-text.ts';

describe('CSV that is data, never code (OWASP CSV injection)', () => {
  it('prefixes a text cell that starts with = + - @, a tab or a CR with a quote, and leaves every other text alone', () => {
    for (const t of ['=1+1', '=HYPERLINK("http://x","y")', '+1', '-1', '@SUM(A1)', '\t=1+1', '\r=1+1']) expect(formulaSafeText(t)).toBe(`'${t}`);
    for (const t of ['pod-1', ' =1+1', "'=1+1", 'a=1', '', '1-2']) expect(formulaSafeText(t)).toBe(t);
  });

  it('keeps a negative number a number, and neutralises a text column that looks like one', () => {
    const t: Table = {
      columns: [{ name: 'name', kind: 'text' }, { name: 'amount', kind: 'exact-number' }, { name: 'n', kind: 'number' }],
      rows: [['-1', '-1.500000', -2], ['=1+1', '3.000000', 4]],
    };
    expect(renderOutput(t, 'csv', { formulaSafe: true })).toBe("name,amount,n\r\n'-1,-1.500000,-2\r\n'=1+1,3.000000,4\r\n");
  });

  it('writes exact values when not asked to neutralise (query --format csv by default)', () => {
    const t: Table = { columns: [{ name: 'name', kind: 'text' }], rows: [['=1+1'], ['\t=2']] };
    expect(renderOutput(t, 'csv')).toBe('name\r\n=1+1\r\n"\t=2"\r\n');
  });

  it('quotes a neutralised cell that holds a comma, a quote or a line break', () => {
    expect(csvLine(['=HYPERLINK("http://x","y")', '\r=1'], undefined, { formulaSafe: true })).toBe(`"'=HYPERLINK(""http://x"",""y"")","'\r=1"\r\n`);
  });
});
