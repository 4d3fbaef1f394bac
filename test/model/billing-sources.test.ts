// The one declaration per billing source against what it must agree with: the migrated raw tables, the simulator's
// routes (which serve the contract independently of these declarations), and the loader, which must refuse a record
// that lacks a declared amount or a table that has an undeclared column instead of storing a silent $0.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BILLING_SOURCE_DEFS, BILLING_SOURCES } from '../../src/model/index.ts';
import { loadBillingPage, type SpooledPage } from '../../src/extract/load-billing.ts';
import { microsToNumber } from '../../src/util/decimal.ts';
import type { Store } from '../../src/store/database.ts';
import { KEY } from '../helpers/sync.ts';
import { openMigratedStore } from '../helpers/view-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const defs = Object.values(BILLING_SOURCE_DEFS);

describe('billing source declarations', () => {
  // the store: the worker's migrated template, copied
  const given = suiteFixture(() => simulatedAccount('gpuledger-sources-', async ({ tmp }) => ({ store: await openMigratedStore(tmp.db) }), { scale: 'small' }));

  it.each(defs.map((d) => [d.source, d] as const))('%s: the migrated raw table has exactly the declared columns', async (_source, def) => {
    const rows = await given.store.all<{ column_name: string; data_type: string }>(
      `select column_name, data_type from information_schema.columns where table_name = $1 order by ordinal_position`,
      [def.table],
    );
    expect(rows.map((r) => r.column_name)).toEqual(def.columns);
    for (const a of def.amounts) {
      expect(`${a.column} ${rows.find((r) => r.column_name === a.column)?.data_type}`).toBe(`${a.column} DECIMAL(18,6)`);
    }
  });

  it.each(defs.map((d) => [d.source, d] as const))('%s: the simulator serves the declared route with exactly the declared fields', async (_source, def) => {
    const res = await fetch(`${given.sim.url}${def.path}?startTime=2026-10-21T00:00:00Z&endTime=2026-11-20T00:00:00Z&bucketSize=week`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { records: Record<string, unknown>[]; metadata: Record<string, unknown> & { totals: Record<string, unknown> } };
    expect(body.records.length).toBeGreaterThan(0);
    const expected = ['startTime', 'endTime', ...(def.idField ? [def.idField] : []), ...def.amountFields].sort();
    for (const record of body.records) expect(Object.keys(record).sort()).toEqual(expected);
    expect(Object.keys(body.metadata.totals).sort()).toEqual([...def.amountFields].sort());
    if (def.uniqueCountKey) expect(typeof body.metadata[def.uniqueCountKey]).toBe('number');
    for (const old of def.oldPaths) {
      const legacy = await fetch(`${given.sim.url}${old}?startTime=2026-11-01T00:00:00Z&endTime=2026-11-02T00:00:00Z&bucketSize=day`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      expect(`${old} ${legacy.status}`).toBe(`${old} 200`);
    }
  });

  it('maps every amount except a derived total to a cost family and component, and each family component once', () => {
    const seen = new Map<string, string>();
    for (const def of defs) {
      for (const a of def.amounts) {
        if (a.field === 'totalAmount' && def.amounts.length > 1) expect(`${def.source}.${a.field} ${a.target}`).toBe(`${def.source}.${a.field} null`);
        else expect(a.target, `${def.source}.${a.field}`).not.toBeNull();
        if (a.target && def.source !== 'aggregate') {
          const key = a.target.join('/');
          expect(seen.get(key), key).toBeUndefined();
          seen.set(key, `${def.source}.${a.field}`);
        }
      }
    }
    // the aggregate carries every family component, and nothing else
    const aggregate = BILLING_SOURCE_DEFS.aggregate.amounts.filter((a) => a.target).map((a) => a.target!.join('/')).sort();
    expect(aggregate).toEqual([...seen.keys()].sort());
  });

  it('lists the sources in extraction order, the aggregate first', () => {
    expect(BILLING_SOURCES[0]).toBe('aggregate');
    expect([...BILLING_SOURCES].sort()).toEqual(defs.map((d) => d.source).sort());
  });

  let pages = 0;
  function page(amounts: Record<string, bigint>): SpooledPage {
    const start = '2026-11-01T00:00:00Z';
    const end = '2026-11-02T00:00:00Z';
    const record = { startTime: start, endTime: end, podId: 'pod-1', ...Object.fromEntries(Object.entries(amounts).map(([f, m]) => [f, microsToNumber(m)])) };
    const file = join(given.tmp.dir, `page-${++pages}.json`);
    writeFileSync(file, JSON.stringify([record]));
    return {
      route: 'pods',
      path: '/v2/billing/pods',
      what: 'GET /v2/billing/pods [2026-11-01T00:00:00Z, 2026-11-02T00:00:00Z) day',
      query: { startTime: new Date(start), endTime: new Date(end), bucketSize: 'day' },
      file,
      recordCount: 1,
      stated: { recordCount: 1, totals: {} },
      read: 'split',
      bytes: 100,
      warnings: [],
    };
  }

  const context = (s: Store) => ({
    store: s,
    runId: 'test-run',
    account: 'acct',
    def: BILLING_SOURCE_DEFS.pods,
    bucketSize: 'day' as const,
    serverNow: new Date('2026-11-03T00:00:00Z'),
    completeThrough: new Date('2026-11-03T00:00:00Z'),
    lastOfRange: true,
  });

  it('refuses a record that lacks a declared amount, naming the field, and stores nothing', async () => {
    const missing = page({ totalAmount: 3_000_000n, gpuAmount: 2_000_000n, cpuAmount: 1_000_000n });
    await expect(loadBillingPage(context(given.store), missing, defs)).rejects.toThrow(/records\[0\]\.diskAmount: missing/);
    expect((await given.store.one<{ n: string }>(`select count(*)::varchar n from raw_billing_pods`))?.n).toBe('0');
    // the complete record loads
    const whole = page({ totalAmount: 3_000_000n, gpuAmount: 2_000_000n, cpuAmount: 1_000_000n, diskAmount: 0n });
    await loadBillingPage(context(given.store), whole, defs);
    expect((await given.store.one<{ t: string }>(`select sum(total_amount)::varchar t from raw_billing_pods`))?.t).toBe('3.000000');
  });

  it('refuses to load into a raw table with a column the declaration does not know, naming it', async () => {
    const other = tempDir('gpuledger-sources-drift-');
    const s = await openMigratedStore(other.db); // the worker's migrated template, copied
    try {
      await s.run('alter table raw_billing_pods add column storage_amount decimal(18,6)');
      const whole = page({ totalAmount: 1n, gpuAmount: 1n, cpuAmount: 0n, diskAmount: 0n });
      await expect(loadBillingPage(context(s), whole, defs)).rejects.toThrow(/in the table but not declared: storage_amount/);
    } finally {
      await s.close();
      other.cleanup();
    }
  });
});
