// The published database as `serve` reads it: one read-only store kept open while the published file stays the same,
// reopened on the first request after a publish – a publish renames a new file over `<db>`, so its identity (inode,
// size, modification time) changes, and the old store keeps reading the old inode until it is closed. Nothing here
// can hold up a writer: writers work on their own copy and never open `<db>` itself. Pages take turns on the store
// (the report clock and the view cache are session state of its connection); answers are cached per published file
// and URL, so a page asked for again is not computed again until the data changes.
import { statSync } from 'node:fs';
import { answerWithRules } from '../allocation/reader-rules.ts';
import type { AllocationConfig } from '../config/allocation.ts';
import { openForReading as openReader } from '../query/open-database.ts';
import type { Store } from '../store/database.ts';

export interface PublishedReader {
  /** Runs fn on the store of the file published now; one at a time. */
  use<T>(fn: (store: Store, identity: string) => Promise<T>): Promise<T>;
  /** The published file's identity now ('' when there is none). */
  identity(): string;
  close(): Promise<void>;
}

export function fileIdentity(path: string): string {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return '';
  }
}

export function publishedReader(dbPath: string, allocation: AllocationConfig): PublishedReader {
  let open: { store: Store; identity: string; undo: () => Promise<void> } | undefined;
  let turn: Promise<unknown> = Promise.resolve();
  const release = async () => {
    if (!open) return;
    const { store, undo } = open;
    open = undefined;
    await undo().catch(() => undefined);
    await store.close();
  };
  return {
    use<T>(fn: (store: Store, identity: string) => Promise<T>): Promise<T> {
      const run = turn.then(async () => {
        const identity = fileIdentity(dbPath);
        if (!open || open.identity !== identity) {
          await release();
          const store = await openReader(dbPath); // a missing file: DatabaseMissingError, said to the user
          open = { store, identity, undo: await answerWithRules(store, allocation) };
        }
        return fn(open.store, open.identity);
      });
      turn = run.catch(() => undefined);
      return run;
    },
    identity: () => fileIdentity(dbPath),
    close: async () => {
      await turn;
      await release();
    },
  };
}

/** Answers by (published file, URL), least recently used dropped first, at most `maxBytes` in all. */
export function answerCache<V extends { body: string }>(maxBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, V>();
  let bytes = 0;
  return {
    get(key: string): V | undefined {
      const answer = entries.get(key);
      if (answer) (entries.delete(key), entries.set(key, answer));
      return answer;
    },
    set(key: string, answer: V): void {
      if (maxBytes === 0 || answer.body.length > maxBytes / 4) return;
      const old = entries.get(key);
      if (old) (entries.delete(key), (bytes -= old.body.length));
      entries.set(key, answer);
      bytes += answer.body.length;
      for (const [oldestKey, old] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldestKey);
        bytes -= old.body.length;
      }
    },
  };
}
