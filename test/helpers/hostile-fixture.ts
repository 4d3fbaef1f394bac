// A database synced from the simulator's hostile names (`hostileNames: true`, docs/simulator.md): markup, formulas,
// bidi overrides, CR/LF and a 40,000-character name in every name the contract has. One sync per caller – the names
// the simulator served come back with it, for the tests to look for.
import type { SyntheticAccount } from '../../src/simulator/index.ts';
import { fastSimulator, smallSyncConfig, syncOnce } from './sync.ts';
import { tempDir, type TempDir } from './temp-dir.ts';
import { openMigratedStore } from './view-store.ts';

export interface HostileDatabase extends TempDir {
  /** The account as the simulator served it: its names are the hostile ones. */
  account: SyntheticAccount;
}

/** A temp folder holding a closed database synced once from a hostile-names simulator. */
export async function hostileDatabase(prefix: string): Promise<HostileDatabase> {
  const tmp = tempDir(prefix);
  const sim = await fastSimulator({ hostileNames: true });
  try {
    const store = await openMigratedStore(tmp.db);
    try {
      await syncOnce(store, smallSyncConfig(sim));
    } finally {
      await store.close();
    }
    return { ...tmp, account: sim.account };
  } catch (e) {
    tmp.cleanup();
    throw e;
  } finally {
    await sim.close();
  }
}
