// A describe block's own simulated account: a fast simulator (sync.ts) and a temp folder, with whatever the block
// prepares on them (a config file, a synced store, a server of its own), stopped together after its tests.
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.ts';
import type { Store } from '../../src/store/database.ts';
import { fastSimulator, openTestStore } from './sync.ts';
import { tempDir, type TempDir } from './temp-dir.ts';

export interface SimulatedAccount {
  sim: Simulator;
  tmp: TempDir;
}

const closable = (value: unknown): value is { close(): Promise<void> | void } =>
  typeof value === 'object' && value !== null && typeof (value as { close?: unknown }).close === 'function';

/**
 * Starts the simulator, makes the folder and runs `prepare` on them. `stop` closes each field prepare returned that
 * can be closed (a store, a server), last first and as it is then (a test may have reopened a store), then the
 * simulator, then removes the folder. A step that fails undoes the steps before it.
 */
export async function simulatedAccount<T extends object>(
  prefix: string,
  prepare: (account: SimulatedAccount) => Promise<T> | T,
  options: SimulatorOptions = {},
): Promise<SimulatedAccount & T & { stop(): Promise<void> }> {
  const sim = await fastSimulator(options);
  const tmp = tempDir(prefix);
  const close = async () => {
    await sim.close();
    tmp.cleanup();
  };
  let prepared: T;
  try {
    prepared = await prepare({ sim, tmp });
  } catch (e) {
    await close();
    throw e;
  }
  const account: SimulatedAccount & T & { stop(): Promise<void> } = {
    sim,
    tmp,
    ...prepared,
    stop: async () => {
      for (const key of Object.keys(prepared).reverse()) {
        const value = (account as Record<string, unknown>)[key];
        if (closable(value)) await value.close();
      }
      await close();
    },
  };
  return account;
}

/** A fresh simulator, folder and store for one test: `use` gets them, and all three are closed after, whatever happens. */
export async function withSimulatedStore(options: SimulatorOptions, use: (account: SimulatedAccount & { store: Store }) => Promise<void>): Promise<void> {
  const account = await simulatedAccount('gpuledger-test-', async ({ tmp }) => ({ store: await openTestStore(tmp.db) }), options);
  try {
    await use(account);
  } finally {
    await account.stop();
  }
}
