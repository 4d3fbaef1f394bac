import { describe, expect, it } from 'vitest';
import {
  addBuckets,
  bucketStarts,
  ceilToBucket,
  countBuckets,
  floorToBucket,
} from '../../src/util/buckets.ts';

const d = (s: string) => new Date(s);

describe('bucket arithmetic (billing-api-v2.md §2)', () => {
  it('snaps the documented example window 10:30–11:15 hourly to [10:00, 12:00)', () => {
    expect(floorToBucket(d('2026-07-01T10:30:00Z'), 'hour').toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(ceilToBucket(d('2026-07-01T11:15:00Z'), 'hour').toISOString()).toBe('2026-07-01T12:00:00.000Z');
  });

  it('leaves an end already on a boundary where it is', () => {
    expect(ceilToBucket(d('2026-07-02T00:00:00Z'), 'day').toISOString()).toBe('2026-07-02T00:00:00.000Z');
  });

  it('starts weeks on Monday (ISO)', () => {
    // 2026-11-22 is a Sunday; its week started Monday 2026-11-16
    expect(floorToBucket(d('2026-11-22T23:59:59Z'), 'week').toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(floorToBucket(d('2026-11-23T00:00:00Z'), 'week').toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('uses calendar months and years', () => {
    expect(floorToBucket(d('2026-02-28T12:00:00Z'), 'month').toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(addBuckets(d('2026-01-01T00:00:00Z'), 'month', 13).toISOString()).toBe('2027-02-01T00:00:00.000Z');
    expect(countBuckets(d('2025-11-01T00:00:00Z'), d('2026-03-01T00:00:00Z'), 'month')).toBe(4);
    expect(floorToBucket(d('2026-12-31T23:00:00Z'), 'year').toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('counts and lists the buckets of a window', () => {
    const start = d('2026-10-26T00:00:00Z');
    const end = d('2026-11-09T00:00:00Z');
    expect(countBuckets(start, end, 'week')).toBe(2);
    expect([...bucketStarts(start, end, 'day')]).toHaveLength(14);
  });
});
