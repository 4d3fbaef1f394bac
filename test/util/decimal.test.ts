import { describe, expect, it } from 'vitest';
import {
  decimalStringToMicros,
  microsToDecimalString,
  microsToNumber,
  numberToMicros,
  sumDecimalStrings,
} from '../../src/util/decimal.ts';

describe('exact money', () => {
  it('reads JSON numbers through their decimal form, not float multiplication', () => {
    expect(numberToMicros(0.345)).toBe(345_000n);
    expect(numberToMicros(0.1 + 0.2)).toBe(300_000n); // 0.30000000000000004 rounds at the sixth decimal
    expect(numberToMicros(1e-7)).toBe(0n);
    expect(numberToMicros(5e-7)).toBe(1n);
    expect(numberToMicros(-2.5e-6)).toBe(-3n); // half away from zero
    expect(numberToMicros(123456789.123456)).toBe(123_456_789_123_456n);
  });

  it('round-trips micros through a JSON number exactly', () => {
    for (const m of [0n, 1n, 999_999n, 1_234_567_890_123n, 999_999_999_999_999n]) {
      expect(numberToMicros(microsToNumber(m))).toBe(m);
    }
    expect(() => microsToNumber(1_000_000_000_000_000n)).toThrow(RangeError);
  });

  it('formats and sums decimal strings exactly', () => {
    expect(microsToDecimalString(-1_500n)).toBe('-0.001500');
    expect(decimalStringToMicros('12.3456785')).toBe(12_345_679n);
    expect(sumDecimalStrings(Array(10).fill('0.1'))).toBe('1.000000');
  });

  it('rejects what is not a number instead of reading it as zero', () => {
    expect(() => decimalStringToMicros('abc')).toThrow(RangeError);
    expect(() => numberToMicros(Number.NaN)).toThrow(RangeError);
  });
});
