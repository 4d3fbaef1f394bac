// The copies of the database gpuledger keeps beside `<db>`, and their names. Every name starts with `<db>.`, so
// store-files.ts protects each of them from every output flag without a list of its own.
//   <db>                          the published copy readers open
//   <db>.writer                   the writer's working copy (shared-database.ts)
//   <db>.previous                 the generation published before the current one (publish.ts)
//   <db>.aside-<time>-<role>      a copy moved out of the way – damaged, holding older data than another, or replaced
//                                 by a restore; never deleted
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** `backup`: a file elsewhere that `store restore --from FILE` was given. */
export type CopyRole = 'published' | 'writer' | 'previous' | 'aside' | 'backup';

export interface CopyFile {
  role: CopyRole;
  path: string;
}

export function writerPathFor(dbPath: string): string {
  return `${dbPath}.writer`;
}

export function previousPathFor(dbPath: string): string {
  return `${dbPath}.previous`;
}

/** The copies gpuledger itself may write to and restore from, newest role first. */
export function mainCopies(dbPath: string): CopyFile[] {
  return [
    { role: 'writer', path: writerPathFor(dbPath) },
    { role: 'published', path: dbPath },
    { role: 'previous', path: previousPathFor(dbPath) },
  ];
}

/** Every copy that exists: the main ones, then those set aside (oldest first). */
export function listCopies(dbPath: string): CopyFile[] {
  const prefix = `${basename(dbPath)}.aside-`;
  let names: string[] = [];
  try {
    names = readdirSync(dirname(dbPath));
  } catch {
    /* no folder: no copies */
  }
  const aside = names
    .filter((n) => n.startsWith(prefix) && !n.endsWith('.wal'))
    .sort()
    .map((n) => ({ role: 'aside' as const, path: join(dirname(dbPath), n) }));
  return [...mainCopies(dbPath).filter((c) => existsSync(c.path)), ...aside];
}

/** "20261120T123456789Z": sorts as it reads, and is a valid file name everywhere. */
function stamp(now: Date): string {
  return now.toISOString().replace(/[-:.]/g, '');
}

/**
 * Move a copy (and its WAL, which belongs to it) out of the way under a name that says when and what it was; returns
 * the new name. Nothing is deleted: a damaged file may still hold what a person can rescue.
 */
export function setAside(dbPath: string, path: string, role: 'published' | 'writer' | 'previous', now = new Date()): string {
  let target = `${dbPath}.aside-${stamp(now)}-${role}`;
  for (let n = 2; existsSync(target); n++) target = `${dbPath}.aside-${stamp(now)}-${role}-${n}`;
  renameSync(path, target);
  if (existsSync(`${path}.wal`)) renameSync(`${path}.wal`, `${target}.wal`);
  return target;
}
