// Allocation on a synced simulator account (issue 13): the example config gives each team its direct cost
// plus its day-by-day proportional share of the platform cost, platform ends at $0, the category adds up to the
// account total exactly, and `gpuledger allocation explain` says which rule put each resource where.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { openStore } from '../../src/store/database.ts';
import { gpuledger } from '../helpers/cli.ts';
import { KEY, openTestStore, smallSyncConfig, syncOnce, writeConfig } from '../helpers/sync.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { storingRules } from '../../src/allocation/load-rules.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

// the example; the simulator has no 'trainer' template, so research also takes the PyTorch pods
const ALLOCATION = {
  categories: {
    team: {
      rules: [
        { value: 'imaging', match: { endpoint: 'sdxl-*' } },
        { value: 'research', match: { template: ['trainer', 'PyTorch*'], family: 'pod' } },
        { value: 'platform', match: { family: ['storage', 'public_endpoint'] } },
        { value: 'legacy', match: { endpoint: 'old-*' } },
      ],
      default: 'unallocated',
      split: [{ from: 'platform', to: ['imaging', 'research'], by: 'proportional' as const }],
    },
  },
};

interface CostRow {
  day: string;
  family: string;
  endpoint_name: string | null;
  template_name: string | null;
  amount: string;
}

/** The example's rules, written out independently of the SQL: the value of one cost row before splits. */
function directValue(c: CostRow): string {
  if (c.endpoint_name?.startsWith('sdxl-')) return 'imaging';
  if (c.family === 'pod' && (c.template_name === 'trainer' || c.template_name?.startsWith('PyTorch'))) return 'research';
  if (c.family === 'storage' || c.family === 'public_endpoint') return 'platform';
  return 'unallocated';
}

describe('allocation on a synced simulator account', () => {
  const synced = suiteFixture(
    () =>
      simulatedAccount('gpuledger-allocation-', async ({ sim, tmp }) => {
        const config: ConfigInput = smallSyncConfig(sim, { allocation: ALLOCATION });
        const configPath = writeConfig(tmp.dir, config);
        const syncing = await openTestStore(tmp.db);
        try {
          await syncOnce(syncing, config);
        } finally {
          await syncing.close();
        }
        // the writing open loads the config's rules into the database
        const store = await openStore({ path: tmp.db, command: 'test', prepare: storingRules(parseConfig(config, 'test').allocation) });
        // and, as a writing session does before it publishes, computes cost_allocated under them
        await refreshMaterialized(store);
        return { store, configPath };
      }),
    180_000,
  );

  it('gives each team its direct cost plus its daily proportional share of platform, platform ends at $0, and the team values add up to the account total exactly', async () => {
    const costs = await synced.store.all<CostRow & Record<string, unknown>>(
      `select day::varchar as day, family, endpoint_name, template_name, amount::varchar as amount from cost_daily where account = 'sim'`,
    );
    // expected in plain arithmetic (to a tenth of a cent), per UTC day
    const perDay = new Map<string, Record<string, number>>();
    for (const c of costs) {
      const day = perDay.get(c.day) ?? { imaging: 0, research: 0, platform: 0, unallocated: 0 };
      day[directValue(c)]! += Number(c.amount);
      perDay.set(c.day, day);
    }
    const expected: Record<string, number> = { imaging: 0, research: 0, platform: 0, unallocated: 0 };
    for (const d of perDay.values()) {
      const basis = Math.max(d.imaging!, 0) + Math.max(d.research!, 0);
      expect(basis).toBeGreaterThan(0);
      expected.imaging! += d.imaging! + (d.platform! * Math.max(d.imaging!, 0)) / basis;
      expected.research! += d.research! + (d.platform! * Math.max(d.research!, 0)) / basis;
      expected.unallocated! += d.unallocated!;
    }
    expect(perDay.size).toBeGreaterThan(10);
    const rows = await synced.store.all<{ value: string; amount: string }>(
      `select value, sum(amount)::varchar as amount from cost_allocated where category = 'team' and account = 'sim' group by value order by value`,
    );
    const got = Object.fromEntries(rows.map((r) => [r.value, r.amount]));
    expect(Object.keys(got)).toEqual(['imaging', 'research', 'unallocated']); // platform ends at $0: no row left
    for (const value of ['imaging', 'research', 'unallocated']) {
      expect(Math.abs(Number(got[value]) - expected[value]!), value).toBeLessThan(0.001);
    }
    expect(expected.imaging).toBeGreaterThan(0);
    expect(expected.research).toBeGreaterThan(0);
    const totals = await synced.store.one<{ allocated: string; total: string }>(
      `select (select sum(amount) from cost_allocated where category = 'team' and account = 'sim')::varchar as allocated,
              (select sum(amount) from cost_daily where account = 'sim')::varchar as total`,
    );
    expect(totals!.allocated).toBe(totals!.total);
    expect(await synced.store.all(`select * from rpt_allocation_warnings`)).toEqual([]);
  });

  it('shows the month in rpt_by_category with shares of the account total', async () => {
    const rows = await synced.store.all<{ value: string; month_to_date: string; share_pct: string | null }>(
      `select value, month_to_date::varchar as month_to_date, share_pct::varchar as share_pct from rpt_by_category where category = 'team' order by value`,
    );
    expect(rows.map((r) => r.value)).toEqual(['imaging', 'research', 'unallocated']);
    const mtd = await synced.store.one<{ v: string }>(
      `select sum(amount)::varchar as v from cost_daily, report_clock where day >= month_start and day <= as_of_date`,
    );
    const sum = await synced.store.one<{ v: string }>(`select sum(month_to_date)::varchar as v from rpt_by_category where category = 'team'`);
    expect(sum!.v).toBe(mtd!.v);
    expect(Math.abs(rows.reduce((s, r) => s + Number(r.share_pct), 0) - 100)).toBeLessThan(0.001);
  });

  it('explains which rule put each resource where, the rules that allocated nothing and the largest unallocated resources', async () => {
    await synced.store.close(); // the CLI takes the write lock
    try {
      const r = await gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, 'allocation', 'explain', '--category', 'team', '--format', 'json'], {
        GPULEDGER_TEST_KEY: KEY,
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
      const sdxl = rows.filter((x) => x.section === 'resource' && x.resource_name === 'sdxl-image-api');
      expect(sdxl.length).toBeGreaterThan(0);
      expect(sdxl[0]).toMatchObject({ category: 'team', family: 'serverless', value: 'imaging', rule: 1, matched_on: 'endpoint=sdxl-image-api' });
      const volume = rows.find((x) => x.section === 'resource' && x.family === 'storage');
      expect(volume).toMatchObject({ value: 'platform', rule: 3, matched_on: 'family=storage' });
      expect(rows.filter((x) => x.section === 'unused_rule')).toEqual([
        expect.objectContaining({ category: 'team', rule: 4, value: 'legacy', match: 'endpoint=old-*', reason: 'matched no cost' }),
      ]);
      const unallocated = rows.filter((x) => x.section === 'unallocated');
      expect(unallocated.length).toBeGreaterThan(0);
      const amounts = unallocated.map((x) => Number(x.amount));
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
      expect(unallocated.every((x) => x.value === 'unallocated')).toBe(true);

      const one = await gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, 'allocation', 'explain', '--resource', 'sdxl-image-api', '--format', 'ndjson']);
      const resources = one.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((x) => x.section === 'resource');
      expect(new Set(resources.map((x) => x.resource_name))).toEqual(new Set(['sdxl-image-api']));

      const bad = await gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, 'allocation', 'explain', '--category', 'project']);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim()).toBe("gpuledger: --category 'project' is not configured (configured: team)");
    } finally {
      synced.store = await openStore({ path: synced.tmp.db, command: 'test' });
    }
  });

  it('answers a reader with the rules of its own config, writing nothing, while other clients see the stored rules', async () => {
    await synced.store.close(); // the CLI reads the file
    try {
      const other = join(synced.tmp.dir, 'other.json');
      const otherConfig = smallSyncConfig(synced.sim, {
        allocation: { categories: { team: { rules: [{ value: 'compute', match: { family: ['pod', 'serverless'] } }], default: 'other', split: [] } } },
      });
      writeFileSync(other, JSON.stringify(otherConfig));
      const before = statSync(synced.tmp.db);
      const sql = "select value, count(*)::varchar as n from cost_allocated where category = 'team' group by 1 order by 1";
      const mine = await gpuledger(['--config', other, '--db', synced.tmp.db, 'query', sql, '--format', 'json']);
      expect(mine.stderr).toBe('');
      expect((JSON.parse(mine.stdout) as { value: string }[]).map((r) => r.value)).toEqual(['compute', 'other']);
      const rules = await gpuledger(['--config', other, '--db', synced.tmp.db, 'query', 'select category, rule_count, written_at from rpt_allocation_rules', '--format', 'json']);
      expect(JSON.parse(rules.stdout)).toEqual([{ category: 'team', rule_count: 1, written_at: null }]);
      // the original config's reader, and the file itself, still hold the stored rules
      const stored = await gpuledger(['--config', synced.configPath, '--db', synced.tmp.db, 'query', sql, '--format', 'json']);
      expect((JSON.parse(stored.stdout) as { value: string }[]).map((r) => r.value)).toEqual(['imaging', 'research', 'unallocated']);
      const after = statSync(synced.tmp.db);
      expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
      expect(readdirSync(synced.tmp.dir).filter((f) => f.includes('.writer') || f.includes('.lock'))).toEqual([]);
    } finally {
      synced.store = await openStore({ path: synced.tmp.db, command: 'test' });
    }
  });

  it('watches a budget scoped to one allocation value on that value\'s cost after splits', async () => {
    const config = parseConfig(
      smallSyncConfig(synced.sim, {
        allocation: ALLOCATION,
        alerts: { budgets: [{ name: 'imaging', amount: 1, scope: { category: 'team', value: 'imaging' }, on: ['actual'] }], channels: [] },
      }),
      'test',
    );
    const sink = new PassThrough();
    const result = await runAlerts({ store: synced.store, config, dryRun: true, stdout: sink });
    const budget = result.conditions.find((c) => c.rule === 'budget');
    expect(budget?.message).toMatch(/team imaging/);
    // the spend it compares is the value's month to date in cost_allocated
    const mtd = await synced.store.one<{ usd: string }>(
      `select sum(a.amount)::decimal(18,2)::varchar usd from cost_allocated a, report_clock r
       where a.category = 'team' and a.value = 'imaging' and a.day >= r.month_start and a.day <= r.as_of_date`,
    );
    expect(Number(mtd?.usd)).toBeGreaterThan(1);
    expect(budget?.message).toContain(Number(mtd!.usd).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  });

  it('carries each category\'s value in the FOCUS Tags', async () => {
    const rows = await synced.store.all<{ team: string | null; n: string }>(
      `select Tags->>'team' as team, count(*)::varchar as n from focus_cost
       where Tags->>'endpoint' like 'sdxl-%' group by 1`,
    );
    expect(rows).toEqual([{ team: 'imaging', n: expect.any(String) }]);
    const storage = await synced.store.one<{ team: string | null }>(`select any_value(Tags->>'team') as team from focus_cost where ServiceName = 'Network Volumes'`);
    expect(storage?.team).toBe('platform');
  });

  it('refuses a budget on an allocation value no category gives, naming it', () => {
    expect(() =>
      parseConfig(smallSyncConfig(synced.sim, { allocation: ALLOCATION, alerts: { budgets: [{ name: 'x', amount: 1, scope: { category: 'team', value: 'marketing' } }] } }), 'test'),
    ).toThrow(/category 'team' gives no value 'marketing'/);
  });

  it('refuses a bad rule on the command line with one line and exit 2', async () => {
    const dir = tempDir('gpuledger-allocation-bad-');
    try {
      const bad = writeConfig(dir.dir, { allocation: { categories: { team: { rules: [{ value: 'x', match: { tag: 'a' } }] } } } } as unknown as ConfigInput);
      const r = await gpuledger(['--config', bad, '--db', dir.db, 'allocation', 'explain']);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/allocation: category 'team' rule 1 match key 'tag': unknown key/);
    } finally {
      dir.cleanup();
    }
  });
});
