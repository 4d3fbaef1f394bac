// The prepaid balance end to end: a synced simulator account exposes rpt_runway and rpt_balance_daily; a balance-only
// sync adds an observation and no top-up twice; the runway alert names ~29 hours at $41.37 and $1.42/h on the
// command line, escalates, adds the deploy floor and resolves; without a balance answer the runway is an estimate.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { Store } from '../../src/store/database.ts';
import { microsToDecimalString } from '../../src/util/decimal.ts';
import { gpuledger } from '../helpers/cli.ts';
import { fastSimulator, openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const RUNWAY_COLUMNS = [
  'account', 'observed_at', 'balance', 'spend_per_hour', 'spend_limit_per_hour', 'runway_hours', 'runs_out_at',
  'storage_only_per_hour', 'storage_runway_hours', 'spend_limit_used_pct', 'estimated',
];
const BILLING_ONLY = ['aggregate', 'pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'] as const;

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

type RunwayRow = Record<string, string | boolean | null>;

/** An observation one second after everything loaded so far: what a later balance read would have said. */
async function observe(store: Store, balance: string, spendPerHour: string): Promise<void> {
  await store.run(
    `insert into raw_balance_observations
     select 'sim', greatest((select max(observed_at) from raw_balance_observations), (select as_of from report_clock)) + interval 1 second,
            $balance::decimal(18,6), $spend::decimal(18,6), 80, false, null, 'test', []::varchar[], 'test-' || gen_random_uuid()::varchar, now()`,
    { balance, spend: spendPerHour },
  );
}

describe('runway on a synced account', () => {
  const synced = suiteFixture(() =>
    simulatedAccount('gpuledger-runway-', async ({ sim, tmp }) => {
      const config = smallSyncConfig(sim, { outDir: tmp.dir });
      const store = await openTestStore(tmp.db);
      const result = await syncOnce(store, config);
      expect(result.status).toBe('success');
      return { config, store };
    }),
  );

  it('exposes rpt_runway with the issue\'s columns and the platform\'s balance', async () => {
    const rows = await synced.store.all<RunwayRow>(`select * from rpt_runway`);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(Object.keys(row).slice(0, RUNWAY_COLUMNS.length)).toEqual(RUNWAY_COLUMNS);
    const snap = synced.sim.balance.at(synced.sim.now().getTime());
    expect(row.balance).toBe(microsToDecimalString(BigInt(snap.balanceMicros)));
    expect(row.spend_per_hour).toBe(microsToDecimalString(BigInt(snap.spendPerHourMicros)));
    expect(row.estimated).toBe(false);
    expect(Number(row.runway_hours)).toBeCloseTo(snap.balanceMicros / snap.spendPerHourMicros, 1);
    expect(Number(row.storage_only_per_hour)).toBeGreaterThan(0);
    expect(Number(row.billed_per_hour_24h)).toBeGreaterThan(0);
    const types = await synced.store.all<{ column_name: string; column_type: string }>(`select column_name, column_type from (describe rpt_runway)`);
    for (const money of ['balance', 'spend_per_hour', 'spend_limit_per_hour', 'storage_only_per_hour']) {
      expect(types.find((t) => t.column_name === money)?.column_type).toMatch(/^DECIMAL/);
    }
  });

  it('rpt_balance_daily gives the balance at each day\'s end, walked back from the first observation, to the micro-dollar', async () => {
    const days = await synced.store.all<{ day_text: string; balance_end: string; top_ups: string; spend: string; balance_basis: string }>(
      `select day::varchar as day_text, balance_end, top_ups, spend, balance_basis from rpt_balance_daily order by day`,
    );
    expect(days.length).toBeGreaterThan(15); // the synced billing window
    const hs = synced.sim.account.historyStart;
    const schedule = synced.sim.balance.schedule();
    for (const d of days) {
      // the simulator's truth: every top-up before the day's end less everything billed before it
      const end = new Date(Date.parse(`${d.day_text}T00:00:00Z`) + 86_400_000);
      const cut = end < synced.sim.now() ? end : synced.sim.now();
      const toppedUp = schedule.filter((r) => r.at < cut).reduce((s, r) => s + BigInt(r.amountMicros), 0n);
      const billed = synced.sim.ledger.sum({ source: 'aggregate', start: hs, end: cut }).totalAmount;
      expect([d.day_text, d.balance_end]).toEqual([d.day_text, microsToDecimalString(toppedUp - billed)]);
    }
    expect(days.at(-1)!.balance_basis).toBe('observed');
    expect(days[0]!.balance_basis).toBe('reconstructed');
    // the planted low moment: the evening before the manual top-up, less than a day of that day's spend is left
    const low = synced.sim.balance.lowPoint()!.at.toISOString().slice(0, 10);
    const before = days[days.findIndex((d) => d.day_text === low) - 1]!;
    expect(Number(before.balance_end)).toBeLessThan(Number(before.spend));
    expect(Number(days.find((d) => d.day_text === low)!.top_ups)).toBeGreaterThan(0);
  });

  it('sync --source balance adds one observation and stores no top-up twice', async () => {
    const count = async () => (await synced.store.one<{ o: string; t: string }>(`select (select count(*) from raw_balance_observations)::varchar o, (select count(*) from raw_balance_top_ups)::varchar t`))!;
    const before = await count();
    expect(Number(before.t)).toBe(synced.sim.balance.at(synced.sim.now().getTime()).reloads.length);
    synced.sim.advance(3_600_000);
    const result = await syncOnce(synced.store, synced.config, { sources: ['balance'] });
    expect(result.status).toBe('success');
    expect(result.ranges.map((r) => [r.source, r.status])).toEqual([['balance', 'ok']]);
    const after = await count();
    expect(Number(after.o)).toBe(Number(before.o) + 1);
    expect(after.t).toBe(before.t);
  });

  it('alerts: warning at ~29 h, critical with the deploy floor at $1, resolved after a top-up', async () => {
    const cfg = parseConfig({ ...synced.config, alerts: { anomaly: { enabled: false }, waste: { enabled: false }, dataQuality: { enabled: false } } }, 'test');
    const run = () => runAlerts({ store: synced.store, config: cfg, outDir: synced.tmp.dir, stdout: new Collect(), now: new Date('2026-11-20T14:00:00Z') });
    await observe(synced.store, '41.37', '1.42');
    const first = await run();
    expect(first.events.map((e) => [e.event, e.key, e.severity])).toEqual([['fired', 'runway:sim', 'warning']]);
    expect(first.events[0]!.title).toMatch(/about 29 hours/);
    await observe(synced.store, '1.00', '1.42');
    const second = await run();
    expect(second.events.map((e) => [e.event, e.key, e.severity]).sort()).toEqual([
      ['escalated', 'runway:sim', 'critical'],
      ['fired', 'runway:deploy-floor:sim', 'critical'],
    ]);
    await observe(synced.store, '41.37', '1.42');
    // back above an hour of credit: the deploy floor clears; the runway falling back to warning is no news
    expect((await run()).events.map((e) => [e.event, e.key])).toEqual([['resolved', 'runway:deploy-floor:sim']]);
    await observe(synced.store, '500.00', '1.42');
    const last = await run();
    expect(last.events.map((e) => [e.event, e.key])).toEqual([['resolved', 'runway:sim']]);
  });

  it('gpuledger alerts --dry-run names a runway of about 29 hours at $41.37 and $1.42/h, and the pods at risk', async () => {
    await observe(synced.store, '41.37', '1.42');
    await synced.store.run(`delete from _meta_alert_state`);
    await synced.store.close();
    const r = await gpuledger(['--db', synced.tmp.db, 'alerts', '--dry-run']);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.stdout).toMatch(/would send: ALERT +warning +\[SIMULATED\] Runway: sim has about 29 hours of credit left \(\$41\.37 at \$1\.42\/h\)/);
    expect(r.stdout).toMatch(/running pod\(s\) without a network volume would be terminated with their data: /);
    expect(r.stdout).toMatch(/network volume\(s\) keep billing and may eventually be deleted/);
    // $0 is a deadline, not just a stop (issue 36 §5): the time, and what the platform deletes then
    expect(r.stdout).toMatch(/\$0 is the deadline: around \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ every running pod stops and pods without a network volume are deleted with their data/);
    expect(r.stdout).toMatch(/Top up before \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, or stop resources\./);
  });
});

describe('runway without a balance answer', () => {
  it('estimates from the last known balance less what was billed since, and says so', async () => {
    const sim = await fastSimulator();
    const tmp = tempDir('gpuledger-runway-est-');
    const store = await openTestStore(tmp.db);
    try {
      const config = smallSyncConfig(sim);
      await syncOnce(store, config);
      const observed = (await store.one<{ balance: string }>(`select balance from rpt_runway`))!.balance;
      sim.setFaults('graphql=down');
      sim.advance(5 * 3_600_000);
      const result = await syncOnce(store, config, { sources: [...BILLING_ONLY, 'balance'] });
      expect(result.status).toBe('partial');
      expect(result.warnings.join('\n')).toMatch(/balance: .*runway is estimated from the last known balance/);
      const row = (await store.one<RunwayRow>(`select *, observed_at::varchar as observed_text, last_observed_at::varchar as last_text from rpt_runway`))!;
      expect(row.estimated).toBe(true);
      expect(row.observed_text).not.toBe(row.last_text);
      // what the ledger billed in those five hours, as far as the day buckets tell: the estimate is lower by about that
      const billed = Number(sim.ledger.sum({ source: 'aggregate', start: new Date(String(row.last_text).replace(' ', 'T').replace(/\+00$/, 'Z')), end: sim.now() }).totalAmount) / 1e6;
      expect(Number(observed) - Number(row.balance)).toBeGreaterThan(billed * 0.5);
      expect(Number(observed) - Number(row.balance)).toBeLessThan(billed * 1.5);
    } finally {
      await store.close();
      await sim.close();
      tmp.cleanup();
    }
  }, 120_000);
});
