// The run's synced database (test/helpers/synced-fixture.ts), which many tests start from instead of syncing: a copy
// holds, to the micro-dollar, what the simulator it stands for bills – so a test reading the copy reads a real sync.
import { describe, expect, it } from 'vitest';
import type { BillingSource } from '../../src/simulator/index.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { expectMatchesLedger, openTestStore } from '../helpers/sync.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const ALL: BillingSource[] = ['aggregate', 'pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'];

describe('the synced database copied per test', () => {
  const account = suiteFixture(() => simulatedAccount('gpuledger-synced-fixture-', () => ({})));

  it('holds every source the simulator bills, equal to its ledger, and each copy is a file of its own', async () => {
    await copySyncedDatabase(account.tmp.db);
    const store = await openTestStore(account.tmp.db);
    try {
      expect(await expectMatchesLedger(store, account.sim, ALL, expect)).toBeGreaterThanOrEqual(ALL.length);
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
