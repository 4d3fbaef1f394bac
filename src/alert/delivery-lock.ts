// One delivery at a time per database: `<db>.alerts.lock`, held from reading what the channels owe until their
// outcomes are recorded. Without it two runs (a manual `alerts` during the nightly `run`) would both read the same
// pending rows and both send them; with it, the delivery journal has a single writer and can be folded and removed
// safely (journal.ts). It is a gpuledger lock file, not a database session: readers and writers of the database are
// not held up while a slow channel is served. A holder that was killed is taken over (lock.ts: pid and start time).
import { relative } from 'node:path';
import { acquireLock, type WriteLock } from '../store/lock.ts';

export function deliveryLockPathFor(dbPath: string): string {
  return `${dbPath}.alerts.lock`;
}

export function acquireDeliveryLock(dbPath: string, options: { command: string; waitMs?: number; onWait?: (message: string) => void }): Promise<WriteLock> {
  return acquireLock(deliveryLockPathFor(dbPath), dbPath, { ...options, guards: `delivering alerts for ${relative(process.cwd(), dbPath) || dbPath}` });
}
