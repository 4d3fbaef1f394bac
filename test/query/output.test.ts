import { describe, expect, it } from 'vitest';
import { defaultFormat, numberLiteral, renderOutput, type Table } from '../../src/cli/output.ts';
import { firstSentence } from '../../src/query/public-views.ts';
import { sqlErrorPosition } from '../../src/query/sql-error.ts';

const table: Table = {
  columns: [
    { name: 'name', kind: 'text' },
    { name: 'amount', kind: 'exact-number' },
    { name: 'n', kind: 'number' },
    { name: 'tags', kind: 'other' },
  ],
  rows: [
    ['a', '1234.500000', 3, ['x', 'y']],
    ['bb', '-0.000001', null, null],
  ],
  footer: ['total 1234.499999'],
};

describe('output', () => {
  it('right-aligns numbers in a table and prints the footer', () => {
    expect(renderOutput(table, 'table')).toBe(
      ['name       amount     n  tags', '----  -----------  ----  ---------', 'a     1234.500000     3  ["x","y"]', 'bb      -0.000001  null  null', 'total 1234.499999', ''].join('\n'),
    );
  });

  it('writes DECIMAL digits as JSON numbers without passing through a double', () => {
    expect(numberLiteral('1234.500000')).toBe('1234.5');
    expect(numberLiteral('12345678901234567.123456')).toBe('12345678901234567.123456');
    expect(numberLiteral('-0.000000')).toBe('0');
    expect(numberLiteral('10')).toBe('10');
    expect(renderOutput(table, 'ndjson')).toBe('{"name":"a","amount":1234.5,"n":3,"tags":["x","y"]}\n{"name":"bb","amount":-0.000001,"n":null,"tags":null}\n');
  });

  it('quotes CSV fields only where needed', () => {
    expect(renderOutput({ columns: [{ name: 'a', kind: 'text' }], rows: [['x,y'], ['say "hi"'], [null]] }, 'csv')).toBe('a\r\n"x,y"\r\n"say ""hi"""\r\n\r\n');
  });

  it('chooses a table for a terminal, NDJSON for a pipe, and the extension for a file', () => {
    expect(defaultFormat(undefined, true)).toBe('table');
    expect(defaultFormat(undefined, false)).toBe('ndjson');
    expect(defaultFormat('out.json', true)).toBe('json');
    expect(defaultFormat('out.csv', false)).toBe('csv');
  });
});

describe('SQL error positions', () => {
  it('turns DuckDB’s LINE and caret into line and column', () => {
    const msg = 'Binder Error: Referenced column "x" not found\n\nLINE 2:   where x > 1\n                ^';
    expect(sqlErrorPosition(msg, 'select 1\n  where x > 1')).toEqual({ line: 2, column: 9 });
    expect(sqlErrorPosition('Parser Error: syntax error at end of input', 'select 1 +')).toEqual({ line: 1, column: 11 });
    expect(sqlErrorPosition('Catalog Error: Table with name t does not exist!', 'select * from t')).toBeUndefined();
  });
});

describe('view descriptions', () => {
  it('takes the first sentence of a header comment', () => {
    expect(firstSentence('One row per day. More details follow.')).toBe('One row per day.');
    expect(firstSentence('One row: "now" for every report view.')).toBe('One row: "now" for every report view.');
  });
});
