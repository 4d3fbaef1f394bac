// The option values several commands share: --wait's seconds (run, sync, alerts, alerts mute/unmute, store check and
// restore all take it so) and a repeatable option's list.
import { describe, expect, it } from 'vitest';
import { collect, waitMs } from '../../src/cli/option-values.ts';
import { UsageError } from '../../src/util/errors.ts';

describe('option values', () => {
  it('reads --wait as seconds ≥ 0 into milliseconds, the command’s own default when it is not given', () => {
    expect(waitMs('0')).toBe(0);
    expect(waitMs('1.5')).toBe(1500);
    expect(waitMs(undefined)).toBe(0);
    expect(waitMs(undefined, 60)).toBe(60_000);
  });

  it.each(['-1', 'soon', 'Infinity'])('refuses --wait %s in one line naming what it takes', (value) => {
    expect(() => waitMs(value)).toThrow(UsageError);
    expect(() => waitMs(value)).toThrow(`--wait takes seconds (a number ≥ 0), got '${value}'`);
  });

  it('collects a repeatable option in the order given', () => {
    expect(['a', 'b', 'c'].reduce((all, v) => collect(v, all), [] as string[])).toEqual(['a', 'b', 'c']);
  });
});
