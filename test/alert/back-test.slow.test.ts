// `gpuledger alerts --dry-run --as-of T` compares with the alert state as it stood at T: an alert recorded after T did
// not exist then, so a back-test before the planted spike "resolves" nothing, while one recorded before T and not
// true at T does resolve. Its note names exactly the days the anomaly rule could not score, derived here on its own
// from the rule (5 like days – weekdays with weekdays, weekend days with weekend days – within the baseline and the
// synced billing). The simulator over real HTTP, a real DuckDB file, the real CLI.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import { openStore } from '../../src/store/database.ts';
import { gpuledger } from '../helpers/cli.ts';
import { smallSyncConfig, syncOnce, writeConfig } from '../helpers/sync.ts';
import { Collect } from '../helpers/alert-delivery.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);

describe('alerts --dry-run --as-of: the alert state of then', () => {
  const synced = suiteFixture(() =>
    simulatedAccount('gpuledger-back-test-', async ({ sim, tmp }) => {
      // 45 days: the spike (10 days ago) needs its 28-day baseline
      const base = smallSyncConfig(sim, { outDir: tmp.dir });
      base.sync = { ...base.sync, start: 'P45D' };
      base.alerts = { channels: [{ type: 'file' }] };
      const configPath = writeConfig(tmp.dir, base);
      const store = await openStore({ path: tmp.db, command: 'test' });
      try {
        expect((await syncOnce(store, base)).status).toBe('success');
        const first = (await store.one<{ d: string }>(`select min(loaded_from)::date::varchar as d from _meta_watermarks where source <> 'inventory'`))!.d;
        return { base, configPath, first };
      } finally {
        await store.close();
      }
    }),
  );

  /** A copy of the synced database, so each case starts with no alert state. */
  const copy = (name: string) => {
    const path = join(synced.tmp.dir, `${name}.duckdb`);
    copyFileSync(synced.tmp.db, path);
    return path;
  };
  const backTest = (db: string, at: number) =>
    gpuledger(['--config', synced.configPath, '--db', db, 'alerts', '--dry-run', '--with-restatements', '--as-of', iso(at)], { GPULEDGER_TEST_KEY: 'unused' });

  it('before the spike, resolves none of the alerts that fired after that moment', async () => {
    const db = copy('later');
    const live = await gpuledger(['--config', synced.configPath, '--db', db, 'alerts']);
    expect(live.code).toBe(0);
    expect(live.stdout + live.stderr).toMatch(/\d+ new/);
    const spike = synced.sim.account.planted.spendSpike;
    const r = await backTest(db, spike.day.getTime() - 6 * HOUR);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^would send: /m);
    expect(r.stdout).not.toMatch(/RESOLVED/);
    expect(r.stdout).not.toContain(spike.name);
  }, 60_000);

  it('resolves an alert recorded before that moment that was not true then', async () => {
    const db = copy('earlier');
    const spike = synced.sim.account.planted.spendSpike;
    const recordedAt = new Date(spike.day.getTime() - 2 * DAY);
    const store = await openStore({ path: db, command: 'test' });
    try {
      // the evaluation of today's data, recorded as if two days before the spike
      const live = await runAlerts({ store, config: parseConfig(synced.base, 'test'), outDir: synced.tmp.dir, now: recordedAt, stdout: new Collect() });
      expect(live.events.some((e) => e.rule === 'anomaly' && e.message.includes(spike.name))).toBe(true);
    } finally {
      await store.close();
    }
    const r = await backTest(db, spike.day.getTime() - 6 * HOUR);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^would send: RESOLVED .*${spike.name}`, 'm'));
    // recorded after the moment the back-test looks at: still nothing
    const before = await backTest(db, recordedAt.getTime() - HOUR);
    expect(before.stdout).not.toMatch(/RESOLVED/);
  }, 60_000);

  it('names exactly the days it did not score, and why', async () => {
    const firstMs = Date.parse(`${synced.first}T00:00:00Z`);
    // 20 days in: the window starts a day after "5 days of history", yet its weekend days (and perhaps its first
    // weekday) have fewer than 5 like days before them
    const asOf = firstMs + 20 * DAY + 6 * HOUR;
    const today = Math.floor(asOf / DAY) * DAY;
    const weekend = (ms: number) => [0, 6].includes(new Date(ms).getUTCDay());
    const expected: string[] = [];
    for (let d = today - 14 * DAY; d < today; d += DAY) {
      let like = 0;
      for (let b = Math.max(firstMs, d - 28 * DAY); b < d; b += DAY) if (weekend(b) === weekend(d)) like++;
      if (like < 5) expected.push(dayOf(d));
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.some((d) => weekend(Date.parse(d)) && Date.parse(d) > firstMs + 5 * DAY)).toBe(true);

    const r = await backTest(synced.tmp.db, asOf);
    expect(r.code).toBe(0);
    const note = r.stdout.split('\n').find((l) => l.startsWith('not scored: anomaly: sim:'));
    expect(note).toBeDefined();
    expect(note).toContain(`${expected.length} of the last 14 days are not scored`);
    expect(note).toContain(`sim's synced billing starts on ${synced.first}`);
    const listed = /before them: (.*?); sim's synced billing starts/.exec(note!)![1]!;
    const named = [...listed.matchAll(/(\d{4}-\d\d-\d\d)(?:\.\.(\d{4}-\d\d-\d\d))?/g)].flatMap(([, a, b]) => {
      const days: string[] = [];
      for (let d = Date.parse(a!); d <= Date.parse(b ?? a!); d += DAY) days.push(dayOf(d));
      return days;
    });
    expect(named.sort()).toEqual(expected);
    expect(listed).toMatch(/weekend days \d{4}/);
  }, 60_000);

  it('refuses --as-of without --dry-run: a back-test sends nothing (one line, exit 2)', async () => {
    const r = await gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, 'alerts', '--as-of', iso(Date.now() - DAY)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--as-of back-tests .* add --dry-run/);
  });
});
