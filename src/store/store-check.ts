// `gpuledger store check`: every copy of the database beside `<db>` (copies.ts) and whether it can be trusted
// (copy-check.ts), and which one `store restore` would bring back: the good main copy holding the newest data – by
// what is recorded inside (copy-newest.ts), never by file time, which a backup copied over `<db>` resets – the writer
// copy first on a tie (it may hold a session not published yet). Copies set aside are listed, never chosen
// on their own: a restore from one is asked for by name.
import { DatabaseMissingError } from './shared-database.ts';
import { listCopies, type CopyRole } from './copies.ts';
import { checkCopy, type CopyCheck } from './copy-check.ts';
import { acquireWriteLock } from './lock.ts';

export interface CopyReport extends CopyCheck {
  role: CopyRole;
}

const TIE_ORDER: Record<CopyRole, number> = { writer: 0, published: 1, previous: 2, aside: 3, backup: 4 };

/**
 * Check each copy, holding the write lock meanwhile: a writing session cannot open the writer copy while it is open
 * here, even read-only (DuckDB), so the check waits for a session to end rather than make one fail.
 */
export async function checkCopies(dbPath: string, options: { waitMs?: number; lockHeld?: boolean } = {}): Promise<CopyReport[]> {
  const copies = listCopies(dbPath);
  if (copies.length === 0) throw new DatabaseMissingError(dbPath);
  const lock = options.lockHeld ? undefined : await acquireWriteLock(dbPath, { command: 'store check', waitMs: options.waitMs });
  try {
    const reports: CopyReport[] = [];
    for (const copy of copies) reports.push({ role: copy.role, ...(await checkCopy(copy.path)) });
    return reports;
  } finally {
    lock?.release();
  }
}

/** The copy `store restore` brings back: the newest good main copy, or undefined when none is good. */
export function newestGood(reports: readonly CopyReport[]): CopyReport | undefined {
  return reports
    .filter((r) => r.state === 'good' && r.role !== 'aside' && r.role !== 'backup')
    .sort((a, b) => (b.newest ?? '').localeCompare(a.newest ?? '') || TIE_ORDER[a.role] - TIE_ORDER[b.role])[0];
}

/** The good main copies holding older data than the newest: what a restore of the newest would set aside or replace. */
export function olderThanNewest(reports: readonly CopyReport[], newest: CopyReport | undefined): CopyReport[] {
  if (!newest) return [];
  return reports.filter((r) => r.state === 'good' && (r.role === 'writer' || r.role === 'published') && (r.newest ?? '') < (newest.newest ?? ''));
}
