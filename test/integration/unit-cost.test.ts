// Unit costs on a synced simulator account (issue 14): imported images per Serverless endpoint give an exact
// DECIMAL unit cost equal to the ledger's bill ÷ the images; a malformed file is refused whole with exit 2; jobs
// derived from /health samples survive a counter reset and split over the days an interval spans; estimated
// GPU-hours of pods match the hours the simulator's meter ran them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNNING } from '../../src/simulator/account/types.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { gpuledger } from '../helpers/cli.ts';
import { openTestStore, smallSyncConfig, syncOnce, writeConfig } from '../helpers/sync.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const DAY_MS = 86_400_000;
const DAYS = ['2026-11-17', '2026-11-18'] as const;
const IMAGES = { '2026-11-17': 1000n, '2026-11-18': 337n } as const;

/** A DECIMAL text as an integer count of 10^-scale units (exact; no float on the way). */
function scaled(text: string, scale: number): bigint {
  const [int, frac = ''] = text.split('.');
  return BigInt(int! + frac.padEnd(scale, '0').slice(0, scale));
}

/** a ÷ b rounded half up, in integers. */
const divRound = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

describe('unit costs against the simulator', () => {
  const synced = suiteFixture(() =>
    simulatedAccount('gpuledger-unit-cost-', async ({ sim, tmp }) => {
      const config = smallSyncConfig(sim);
      const configPath = writeConfig(tmp.dir, config);
      const store = await openTestStore(tmp.db);
      try {
        await syncOnce(store, config, { sources: ['inventory', 'serverless', 'pods', 'health'] });
      } finally {
        await store.close();
      }
      const e = sim.account.endpoints.find((x) => x.name === 'sdxl-image-api')!;
      /** sdxl's completed counter at the first sync's sample (the simulator's initial now): c0. */
      return { configPath, sdxl: { id: e.id, name: e.name }, c0: sim.queueCounts(e.id).completed };
    }),
  );

  const cli = (...args: string[]) => gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, ...args]);
  const read = async <T,>(sql: string, params?: Record<string, string>): Promise<T[]> => {
    const store: Store = await openStore({ path: synced.tmp.db, readOnly: true });
    try {
      return (await store.all(sql, params)) as T[];
    } finally {
      await store.close();
    }
  };

  it('gives unit_cost = the endpoint\'s billed cost that day ÷ the imported images, exactly (DECIMAL(38,9), half up)', async () => {
    const csv = join(synced.tmp.dir, 'images.csv');
    writeFileSync(csv, ['date,metric,value,scope', ...DAYS.map((d) => `${d},images,${IMAGES[d]},endpoint:${synced.sdxl.name}`)].join('\n') + '\n');
    const r = await cli('metrics', 'import', csv);
    expect(r.stderr).toContain('imported 2 value(s)');
    expect(r.code).toBe(0);

    const rows = await read<{ day: string; cost: string; quantity: string; unit_cost: string; estimated: boolean }>(
      `select day::varchar as day, cost::varchar as cost, quantity::varchar as quantity, unit_cost::varchar as unit_cost, estimated
       from rpt_unit_cost where metric = 'images' and scope = $scope order by day`,
      { scope: `endpoint:${synced.sdxl.name}` },
    );
    expect(rows.map((x) => x.day)).toEqual([...DAYS]);
    let weekCost = 0n;
    let weekImages = 0n;
    for (const row of rows) {
      const day = row.day as (typeof DAYS)[number];
      const start = new Date(`${day}T00:00:00Z`);
      const billed = synced.sim.ledger.sum({ source: 'serverless', start, end: new Date(start.getTime() + DAY_MS), resourceId: synced.sdxl.id }).totalAmount;
      expect(billed).toBeGreaterThan(0n);
      expect(decimalStringToMicros(row.cost)).toBe(billed);
      // micro-dollars × 1000 = nano-dollars; ÷ images, half up at the ninth decimal
      expect(scaled(row.unit_cost, 9)).toBe(divRound(billed * 1000n, IMAGES[day]));
      expect(row.estimated).toBe(false);
      weekCost += billed;
      weekImages += IMAGES[day];
    }
    const [week] = await read<{ unit_cost: string }>(
      `select unit_cost::varchar as unit_cost from rpt_unit_cost_7d where metric = 'images' and scope = $scope and day = date '2026-11-18'`,
      { scope: `endpoint:${synced.sdxl.name}` },
    );
    expect(scaled(week!.unit_cost, 9)).toBe(divRound(weekCost * 1000n, weekImages));
  });

  it('replaces a re-imported (date, metric, scope) and refuses a malformed file whole with exit 2 naming its line', async () => {
    const again = join(synced.tmp.dir, 'again.csv');
    writeFileSync(again, `date,metric,value,scope\n${DAYS[0]},images,2000,endpoint:${synced.sdxl.name}\n`);
    expect((await cli('metrics', 'import', again)).code).toBe(0);
    const bad = join(synced.tmp.dir, 'bad.csv');
    writeFileSync(bad, `date,metric,value,scope\n${DAYS[0]},images,5,endpoint:${synced.sdxl.name}\n${DAYS[1]},images,-4,\n`);
    const r = await cli('metrics', 'import', bad);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`gpuledger: ${bad} line 3, field value: negative value '-4'; a metric value is ≥ 0`);
    const unknownKind = join(synced.tmp.dir, 'kind.csv');
    writeFileSync(unknownKind, `date,metric,value,scope\n${DAYS[0]},images,5,team:imaging\n`);
    const k = await cli('metrics', 'import', unknownKind);
    expect(k.code).toBe(2);
    expect(k.stderr).toContain('line 2, field scope: unknown scope kind \'team\'');
    // the good first line of the bad file was not written either
    const stored = await read<{ day: string; value: string }>(`select day::varchar as day, value::varchar as value from raw_metrics where metric = 'images' order by day`);
    expect(stored).toEqual([
      { day: DAYS[0], value: '2000.000000' },
      { day: DAYS[1], value: '337.000000' },
    ]);
  });

  it('refuses metrics of an account the database has no cost of, naming the accounts it has', async () => {
    const other = join(synced.tmp.dir, 'other.csv');
    writeFileSync(other, `date,metric,value,scope\n${DAYS[0]},images,5,\n`);
    const r = await cli('metrics', 'import', other, '--account', 'nosuch');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "gpuledger: --account 'nosuch' has no synced cost in this database, so its metrics would divide nothing; accounts in the database: sim (pass --account NAME, or sync 'nosuch' first)",
    );
    expect(await read(`select count(*)::varchar as n from raw_metrics where account = 'nosuch'`)).toEqual([{ n: '0' }]);
  });

  it('derives jobs from /health samples across a counter reset, split over the days each interval spans', async () => {
    const config = smallSyncConfig(synced.sim);
    const sample = async (at: string) => {
      synced.sim.setNow(at);
      const store = await openTestStore(synced.tmp.db);
      try {
        const result = await syncOnce(store, config, { sources: ['health'] });
        expect(result.warnings).toEqual([]);
      } finally {
        await store.close();
      }
    };
    await sample('2026-11-20T20:00:00Z');
    const c1 = synced.sim.queueCounts(synced.sdxl.id).completed;
    await sample('2026-11-21T02:00:00Z'); // 4 h on the 20th, 2 h on the 21st
    const c2 = synced.sim.queueCounts(synced.sdxl.id).completed;
    synced.sim.resetQueueCounters(synced.sdxl.id);
    await sample('2026-11-21T05:00:00Z');
    const c3 = synced.sim.queueCounts(synced.sdxl.id).completed;
    expect(c2).toBeGreaterThan(c1);
    expect(c3).toBeGreaterThan(c2);

    const samples = await read<{ completed: string }>(
      `select completed::varchar as completed from raw_queue_health where endpoint_id = $id order by sampled_at`,
      { id: synced.sdxl.id },
    );
    // the last sample counts from the reset: lower than the one before it
    expect(Number(samples.at(-1)!.completed)).toBe(c3 - c2);

    const jobs = await read<{ day: string; value: string; estimated: boolean }>(
      `select day::varchar as day, value::varchar as value, estimated from metrics_daily
       where metric = 'jobs_completed' and scope = $scope and day >= date '2026-11-20' order by day`,
      { scope: `endpoint:${synced.sdxl.name}` },
    );
    const first = BigInt(c2 - c1);
    const onThe20th = (first * 4n) / 6n;
    expect(jobs).toEqual([
      // the first sync sampled at 12:34:56 on the 20th: that interval lies wholly on the 20th
      { day: '2026-11-20', value: `${BigInt(c1 - synced.c0) + onThe20th}.000000`, estimated: true },
      { day: '2026-11-21', value: `${first - onThe20th + BigInt(c3 - c2)}.000000`, estimated: true },
    ]);
    const [unit] = await read<{ unit_cost: string | null; estimated: boolean }>(
      `select unit_cost::varchar as unit_cost, estimated from rpt_unit_cost where metric = 'jobs_completed' and scope = $scope and day = date '2026-11-20'`,
      { scope: `endpoint:${synced.sdxl.name}` },
    );
    expect(unit!.estimated).toBe(true);
  });

  it('alerts when the cost per unit jumps, saying that the volume fell', async () => {
    // three steady weeks of 1000 requests a day, then a day with 100: the same endpoint cost buys a tenth of the work
    const days: string[] = [];
    for (let d = new Date('2026-10-29T00:00:00Z'); d <= new Date('2026-11-19T00:00:00Z'); d = new Date(d.getTime() + DAY_MS)) {
      days.push(d.toISOString().slice(0, 10));
    }
    const csv = join(synced.tmp.dir, 'requests.csv');
    writeFileSync(csv, `date,metric,value,scope\n${days.map((d) => `${d},requests,${d === '2026-11-19' ? 100 : 1000},endpoint:${synced.sdxl.name}`).join('\n')}\n`);
    expect((await cli('metrics', 'import', csv)).code).toBe(0);
    const r = await cli('alerts', '--dry-run');
    const line = r.stdout.split('\n').find((l) => l.includes(`Unit cost: requests for endpoint:${synced.sdxl.name}`));
    expect(line, r.stdout + r.stderr).toBeDefined();
    expect(line).toMatch(/on 2026-11-19, \d+(\.\d+)?× its median – the volume fell/);
    // the steady metric of the same endpoint does not fire
    expect(r.stdout).not.toMatch(/Unit cost: images for/);
  });

  it('estimates GPU-hours of pods that match the hours the meter ran them', async () => {
    const day = '2026-11-18';
    const from = Date.parse(`${day}T00:00:00Z`);
    const pods = synced.sim.account.pods.filter((p) => p.gpu && p.cluster === null && ['llm-inference-prod', 'jupyter-bob'].includes(p.names[0]!.name));
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      const a = pod.activity;
      let ranMs = 0;
      for (let i = 0; i < a.starts.length; i++) {
        if (a.states[i] !== RUNNING) continue;
        ranMs += Math.max(0, Math.min(a.ends[i]!, from + DAY_MS) - Math.max(a.starts[i]!, from));
      }
      const [row] = await read<{ running_hours: string; gpu_hours: string; gpu_count: number; list_unit_price: string; estimated: boolean }>(
        `select running_hours::varchar as running_hours, gpu_hours::varchar as gpu_hours, gpu_count, list_unit_price::varchar as list_unit_price, estimated
         from gpu_hours_daily where resource_id = $id and day = date '${day}'`,
        { id: pod.id },
      );
      expect(row, pod.names[0]!.name).toBeDefined();
      expect(row!.estimated).toBe(true);
      // the ledger rounds each hour to the micro-dollar: at most 0.5 µ$ per hour ÷ the hourly price off the meter
      const ranMicroHours = BigInt(Math.round((ranMs / 3_600_000) * 1e6));
      const tolerance = 24n;
      expect(scaled(row!.running_hours, 6) - ranMicroHours).toBeLessThanOrEqual(tolerance);
      expect(ranMicroHours - scaled(row!.running_hours, 6)).toBeLessThanOrEqual(tolerance);
      expect(row!.gpu_count).toBe(pod.gpu!.count);
      const price = Math.round(pod.computePrice * 1e6) / pod.gpu!.count;
      expect(scaled(row!.list_unit_price, 6)).toBe(BigInt(price));
    }
    // FOCUS carries them as ConsumedQuantity in GPU-Hours with a list price
    const focus = await read<{ unit: string; qty: string }>(
      `select ConsumedUnit as unit, sum(ConsumedQuantity)::varchar as qty from focus_cost
       where ResourceId = $id and SkuMeter = 'gpu' and ChargePeriodStart >= timestamptz '${day} 00:00:00+00' and ChargePeriodStart < timestamptz '${day} 00:00:00+00' + interval 1 day
       group by all`,
      { id: pods[0]!.id },
    );
    expect(focus).toHaveLength(1);
    expect(focus[0]!.unit).toBe('GPU-Hours');
  });
});
