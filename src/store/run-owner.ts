// Files a run leaves behind when it is killed – its spool folder, a publish file, DuckDB's spill folder – carry
// their owner in their name: `<pid>-<start>`, the process id and its start time as the kernel counts it, as the
// lock files do (lock.ts). The next run removes those whose owner is gone; a live run's files are never touched,
// and a pid reused by another process is told apart by its start time.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isHolderAlive, processStartOf } from './lock.ts';

/** This process as a name part: `12345-987654` (start 0 where the platform has no /proc). */
export function ownerTag(): string {
  return `${process.pid}-${processStartOf(process.pid) ?? 0}`;
}

/** The process a tag names: its pid and, where known, its start time. */
export interface Owner {
  pid: number;
  start: string | null;
}

/** Whether the owner still runs: its pid is alive and (where recorded) started when the tag says. */
export function isOwnerAlive(owner: Owner): boolean {
  if (owner.pid === process.pid) return true;
  // start 0: written where there is no /proc, so only the pid can be checked
  const start = owner.start && owner.start !== '0' ? owner.start : null;
  return isHolderAlive({ pid: owner.pid, processStart: start, command: '', startedAt: '' });
}

/**
 * Remove the entries of `dir` whose name matches `pattern` (group `pid`, optional group `start`) and whose owner is
 * dead. Returns the names removed. An entry that cannot be removed (another user's, already gone) is left alone.
 */
export function sweepDead(dir: string, pattern: RegExp): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    const pid = Number(m?.groups?.pid);
    if (!m || !Number.isInteger(pid) || pid <= 0) continue;
    if (isOwnerAlive({ pid, start: m.groups?.start ?? null })) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      /* not ours to remove (another user's temp folder) or removed by another run meanwhile */
    }
  }
  return removed;
}
