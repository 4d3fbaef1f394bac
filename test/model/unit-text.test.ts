// unitText, the one number-to-text (src/model/unit-text.ts): each unit's text, and each option that keeps what a
// place showed before the other formatters were folded into it (issue 41 §3) – the alerts' micro-dollar reading, the
// explorer's hundredths of an hour, the charts' "-$0.00" – pinned with the figures where the ways used to differ.
import { describe, expect, it } from 'vitest';
import { unitText } from '../../src/model/index.ts';

describe('unitText', () => {
  it('writes each number unit from the exact decimal text, half away from zero, grouping thousands', () => {
    expect(unitText('1234567.005', 'usd')).toBe('$1,234,567.01');
    expect(unitText('-12.345', 'usd')).toBe('-$12.35');
    expect(unitText('38.005', 'usd_per_hour')).toBe('$38.01/h');
    expect(unitText('0.02955', 'usd_per_unit')).toBe('$0.0296');
    expect(unitText('47.45', 'percent')).toBe('47.5 %');
    expect(unitText('180.05', 'hours')).toBe('180.1 h');
    expect(unitText('8358.88', 'days_from_hours')).toBe('348 days');
    expect(unitText(1234567, 'count')).toBe('1,234,567');
    expect(unitText('2.50', 'number')).toBe('2.5');
  });

  it('reads a double through its shortest form, so 1.005 is a cent up and 1e21 is written out', () => {
    expect(unitText(1.005, 'usd')).toBe('$1.01');
    expect(unitText(1e21, 'usd')).toBe('$1,000,000,000,000,000,000,000.00');
    expect(unitText(1e-7, 'usd_per_unit')).toBe('$0.0000');
  });

  it('shows a value that is not a decimal as it came, never as a silent $0.00', () => {
    expect(unitText('n/a', 'usd')).toBe('n/a');
    expect(unitText('', 'usd')).toBe('');
  });

  it('puts a plus before a rise when signed, and nothing before a figure that rounds to zero', () => {
    expect(unitText('12.3', 'usd', { signed: true })).toBe('+$12.30');
    expect(unitText('-12.3', 'usd', { signed: true })).toBe('-$12.30');
    expect(unitText('0.004', 'usd', { signed: true })).toBe('$0.00');
    expect(unitText('-0.004', 'usd', { signed: true })).toBe('$0.00');
  });

  it('with micros, rounds at the micro-dollar first and refuses a non-decimal, as alerts read money', () => {
    // 0.0049996 is $0.00 exactly, but $0.005000 at the store's six decimals and so $0.01 (what usdText wrote)
    expect(unitText('0.0049996', 'usd')).toBe('$0.00');
    expect(unitText('0.0049996', 'usd', { micros: true })).toBe('$0.01');
    expect(unitText('-0.004999', 'usd', { micros: true })).toBe('$0.00');
    expect(unitText('12.3', 'usd', { signed: true, micros: true })).toBe('+$12.30');
    expect(() => unitText('n/a', 'usd', { micros: true })).toThrow(/not a decimal amount: 'n\/a'/);
  });

  it('with decimals, reads to other places than the unit: the explorer GPU-hours to the hundredth', () => {
    expect(unitText('1234.565', 'hours')).toBe('1,234.6 h');
    expect(unitText('1234.565', 'hours', { decimals: 2, micros: true })).toBe('1,234.57 h');
    expect(unitText('-0.004', 'hours', { decimals: 2, micros: true })).toBe('0.00 h');
  });

  it('with minusOnZero, keeps the minus of a negative that rounds to zero, as the chart labels drew it', () => {
    expect(unitText(-0.001, 'usd')).toBe('$0.00');
    expect(unitText(-0.001, 'usd', { minusOnZero: true })).toBe('-$0.00');
    expect(unitText(-0, 'usd', { minusOnZero: true })).toBe('-$0.00');
    expect(unitText(0, 'usd', { minusOnZero: true })).toBe('$0.00');
    expect(unitText(-1234.5, 'usd', { minusOnZero: true })).toBe('-$1,234.50');
  });
});
