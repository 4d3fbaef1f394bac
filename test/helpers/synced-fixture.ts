// One synced database per test run, copied per test: a small simulator account synced as a user's first sync leaves
// it. Syncing costs seconds and every copy of the same deterministic simulator (fixed now, fixed seed) gives the
// same rows, so the first test that asks builds it into the run's folder (test/helpers/run-folder.ts) and every
// later one – in any worker – copies the file. Built lazily: a run that needs none syncs none.
import { copyFileSync, existsSync, linkSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/database.ts';
import { RUN_FOLDER_ENV } from './run-folder.ts';
import { fastSimulator, smallSyncConfig, syncOnce } from './sync.ts';
import { tempDir, type TempDir } from './temp-dir.ts';
import { openMigratedStore } from './view-store.ts';

let building: Promise<string> | undefined;

async function syncInto(db: string): Promise<void> {
  const sim = await fastSimulator();
  try {
    const store = await openMigratedStore(db); // the worker's migrated template, copied
    try {
      await syncOnce(store, smallSyncConfig(sim));
    } finally {
      await store.close();
    }
  } finally {
    await sim.close();
  }
}

async function build(): Promise<string> {
  const folder = process.env[RUN_FOLDER_ENV] ?? tempDir('gpuledger-synced-').dir;
  const shared = join(folder, 'synced.duckdb');
  if (existsSync(shared)) return shared;
  // built aside and linked into place, so a worker never copies a half-written file. Two workers may both build: the
  // first link wins and is never replaced (a rename would swap the file between two copies one test makes, and the
  // builds differ in their sync times and simulator URL)
  const aside = join(folder, `synced-${process.pid}`);
  mkdirSync(aside, { recursive: true });
  try {
    await syncInto(join(aside, 'ledger.duckdb'));
    linkSync(join(aside, 'ledger.duckdb'), shared);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
  return shared;
}

/** Writes the run's synced database to `db` (a path that does not exist yet). */
export async function copySyncedDatabase(db: string): Promise<void> {
  building ??= build();
  building.catch(() => (building = undefined));
  copyFileSync(await building, db);
}

/**
 * A temp folder holding a database synced from a fresh small simulator, as a user's first sync leaves it – names,
 * templates and GPU types joined as in real use – with the store left open (close it, or use `syncedDatabase`).
 * A copy of the run's one synced database (synced-fixture.ts).
 */
export async function syncedStore(prefix: string): Promise<TempDir & { store: Store }> {
  const tmp = tempDir(prefix);
  await copySyncedDatabase(tmp.db);
  return { ...tmp, store: await openStore({ path: tmp.db }) };
}

/** The same, closed: a database file for a CLI or server under test to open. */
export async function syncedDatabase(prefix: string): Promise<TempDir> {
  const { store, ...tmp } = await syncedStore(prefix);
  await store.close();
  return tmp;
}
