import { DuckDBTypeId } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { instantText, valueText } from '../../../src/present/index.ts';
import { unitText } from '../../../src/model/index.ts';
import { inferFormat, parseTimestamp, toCellValue } from '../../../src/report/cells/values.ts';

describe('cell values', () => {
  it('turns DECIMAL strings into numbers only at the cell, and keeps NULL empty', () => {
    expect(toCellValue('1234.567891', 'usd', 'UTC')).toBe(1234.567891);
    expect(toCellValue('-0.000001', 'usd', 'UTC')).toBe(-0.000001);
    expect(toCellValue(null, 'usd', 'UTC')).toBeNull();
    expect(toCellValue('not a number', 'usd', 'UTC')).toBe('not a number'); // never a silent 0
  });

  it('makes DATE a real date at UTC midnight (an Excel day) and shows instants on the configured clock', () => {
    expect(toCellValue('2026-11-21', 'date', 'Europe/Berlin')).toEqual(new Date('2026-11-21T00:00:00Z'));
    expect(toCellValue('2026-11-21 06:00:00+00', 'datetime', 'Europe/Berlin')).toEqual(new Date('2026-11-21T07:00:00Z'));
    expect(toCellValue('2026-07-01 06:00:00+00', 'datetime', 'Europe/Berlin')).toEqual(new Date('2026-07-01T08:00:00Z')); // summer time
    expect(toCellValue('2026-11-21 06:00:00', 'datetime', 'Europe/Berlin')).toEqual(new Date('2026-11-21T06:00:00Z')); // naive: as is
    expect(toCellValue('2026-11-21 23:30:00+00', 'date', 'Europe/Berlin')).toEqual(new Date('2026-11-22T00:00:00Z'));
  });

  it('parses DuckDB timestamp text with fractions and offsets', () => {
    expect(parseTimestamp('2026-11-21 06:00:01.5+00')?.toISOString()).toBe('2026-11-21T06:00:01.500Z');
    expect(parseTimestamp('2026-11-21 06:00:00+05:30')?.toISOString()).toBe('2026-11-21T00:30:00.000Z');
    expect(parseTimestamp('infinity')).toBeUndefined();
  });

  it('infers formats from SQL types and names', () => {
    expect(inferFormat(DuckDBTypeId.DECIMAL, 'month_to_date')).toBe('usd');
    expect(inferFormat(DuckDBTypeId.DECIMAL, 'change_pct')).toBe('percent');
    expect(inferFormat(DuckDBTypeId.DATE, 'day')).toBe('date');
    expect(inferFormat(DuckDBTypeId.TIMESTAMP_TZ, 'as_of')).toBe('datetime');
    expect(inferFormat(DuckDBTypeId.BIGINT, 'n')).toBe('count');
    expect(inferFormat(DuckDBTypeId.VARCHAR, 'name')).toBe('text');
  });

  it('formats money from the exact decimal, rounding half away from zero at the cent', () => {
    expect(unitText('1234567.005000', 'usd', { micros: true })).toBe('$1,234,567.01');
    expect(unitText('-0.004999', 'usd', { micros: true })).toBe('$0.00');
    expect(unitText('-12.345', 'usd', { micros: true })).toBe('-$12.35');
    expect(unitText('12.3', 'usd', { signed: true, micros: true })).toBe('+$12.30');
    expect(valueText('12.5', 'percent', 'UTC', { signed: true })).toBe('+12.5 %');
    expect(instantText(new Date('2026-11-21T06:00:00Z'), 'America/New_York')).toBe('2026-11-21 01:00 America/New_York');
    // an instant is on the configured clock and says so; a naive timestamp (`… at time zone 'UTC'`) is shown as it is
    expect(valueText('2026-11-20 06:00:00+00', 'datetime', 'Europe/Berlin')).toBe('2026-11-20 07:00 Europe/Berlin');
    expect(valueText('2026-11-20 06:00:00', 'datetime', 'Europe/Berlin')).toBe('2026-11-20 06:00');
  });
});
