// Read-side commands open the database read-only and say what to do when there is nothing to read yet.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { openStore, type Store } from '../store/database.ts';
import { EXIT, GpuledgerError } from '../util/errors.ts';

/** The database file does not exist: nothing has been synced into it yet. */
export class DatabaseMissingError extends GpuledgerError {
  constructor(path: string) {
    const rel = relative(process.cwd(), path);
    const shown = rel && !rel.startsWith('..') ? rel : path;
    super('db_missing', `database ${shown} does not exist yet; run gpuledger sync first (or pass --db FILE)`, EXIT.usage);
  }
}

export async function openForReading(path: string): Promise<Store> {
  if (!existsSync(path)) throw new DatabaseMissingError(path);
  return openStore({ path, readOnly: true });
}

export async function withReadStore<T>(path: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openForReading(path);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
