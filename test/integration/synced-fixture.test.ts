// The run's synced database (test/helpers/synced-fixture.ts), which many tests start from instead of syncing: a copy
// holds, to the micro-dollar, what the simulator it stands for bills – so a test reading the copy reads a real sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingSource, Simulator } from '../../src/simulator/index.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { expectMatchesLedger, fastSimulator, openTestStore } from '../helpers/sync.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

const ALL: BillingSource[] = ['aggregate', 'pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'];

describe('the synced database copied per test', () => {
  let sim: Simulator;
  let tmp: TempDir;
  beforeAll(async () => {
    sim = await fastSimulator();
    tmp = tempDir('gpuledger-synced-fixture-');
  });
  afterAll(async () => {
    await sim?.close();
    tmp?.cleanup();
  });

  it('holds every source the simulator bills, equal to its ledger, and each copy is a file of its own', async () => {
    await copySyncedDatabase(tmp.db);
    const store = await openTestStore(tmp.db);
    try {
      expect(await expectMatchesLedger(store, sim, ALL, expect)).toBeGreaterThanOrEqual(ALL.length);
      await store.run(`delete from raw_billing_pods`);
    } finally {
      await store.close();
    }
    const again = tempDir('gpuledger-synced-fixture-');
    try {
      await copySyncedDatabase(again.db);
      const copy = await openTestStore(again.db);
      try {
        expect((await copy.one<{ n: string }>(`select count(*)::varchar as n from raw_billing_pods`))!.n).not.toBe('0');
      } finally {
        await copy.close();
      }
    } finally {
      again.cleanup();
    }
  });
});
