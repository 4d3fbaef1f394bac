// Publishing the writer copy as `<db>`: copy it to a publish file beside `<db>`, fsync, keep the current `<db>` as
// `<db>.previous` (a hard link: no bytes are copied, the old file simply keeps a name once the new one is renamed in),
// then rename the publish file over `<db>`. So one bad write – a damaged writer copy published, a file written over
// `<db>` – always leaves the generation before it (issue 18 §2). A `<db>` that is not known good is never rotated
// into `.previous`: it is checked, and set aside if it fails. A publish file carries its owner (run-owner.ts), and one
// left by a killed run is removed by the next writer.
import { closeSync, constants, copyFileSync, fsyncSync, linkSync, openSync, rmSync, statSync, utimesSync, renameSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '../util/log.ts';
import { previousPathFor, setAside, writerPathFor } from './copies.ts';
import { checkCopy } from './copy-check.ts';
import { ownerTag, sweepDead } from './run-owner.ts';

/** Which file a path is: device, inode, size and modification time. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export function identityOf(path: string): FileIdentity | undefined {
  try {
    const { dev, ino, size, mtimeMs } = statSync(path);
    return { dev, ino, size, mtimeMs };
  } catch {
    return undefined;
  }
}

function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Copy a file and fsync it. Where the file system can (btrfs, XFS, APFS), the copy is a clone sharing the blocks until
 * either side writes – a new file all the same, so a reader holding the old one never sees the writer's changes. */
export function copyDurably(from: string, to: string): void {
  copyFileSync(from, to, constants.COPYFILE_FICLONE);
  const fd = openSync(to, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `<db>.publish-<pid>-<start>.tmp` and its `.previous.tmp` link; `<db>.publish-<pid>.tmp` as older versions named it. */
function publishFilePattern(dbPath: string): RegExp {
  return new RegExp(`^${escape(basename(dbPath))}\\.publish-(?<pid>\\d+)(?:-(?<start>\\d+))?\\.(?:previous\\.)?tmp$`);
}

/** Remove the publish files of runs that died while publishing; call with the write lock held. */
export function sweepPublishFiles(dbPath: string): string[] {
  return sweepDead(dirname(dbPath), publishFilePattern(dbPath));
}

export interface PublishOptions {
  /** `<db>` as it was when it was last known good (the writing session saw it at open); anything else is checked. */
  knownGood?: FileIdentity;
  log?: Pick<Logger, 'warn'>;
}

/** Whether the current `<db>` may become `<db>.previous`; a bad one is set aside instead. */
async function rotatable(dbPath: string, options: PublishOptions): Promise<boolean> {
  const current = identityOf(dbPath);
  if (current === undefined) return false;
  if (sameFile(current, options.knownGood)) return true;
  const check = await checkCopy(dbPath);
  if (check.state === 'good') return true;
  const aside = setAside(dbPath, dbPath, 'published');
  options.log?.warn(`${dbPath} is not a good gpuledger database (${check.problem}); kept it as ${aside} and published the writer copy over it`);
  return false;
}

function fsyncFolder(path: string): void {
  try {
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    /* some platforms cannot fsync a directory; the rename itself is atomic */
  }
}

/** Publish the (closed, checkpointed) writer copy as <db>, atomically, keeping the generation before it. */
export async function publish(dbPath: string, writerPath = writerPathFor(dbPath), options: PublishOptions = {}): Promise<void> {
  const tmp = `${dbPath}.publish-${ownerTag()}.tmp`;
  const previousTmp = `${dbPath}.publish-${ownerTag()}.previous.tmp`;
  try {
    copyDurably(writerPath, tmp);
    const { atime, mtime } = statSync(writerPath);
    // the published copy carries the writer's time: a <db> newer than the writer was written by someone else
    utimesSync(tmp, atime, mtime);
    // a stale WAL beside <db> would be replayed onto the new file by the next reader
    rmSync(`${dbPath}.wal`, { force: true });
    if (await rotatable(dbPath, options)) {
      rmSync(previousTmp, { force: true });
      try {
        linkSync(dbPath, previousTmp);
      } catch {
        copyDurably(dbPath, previousTmp); // a file system without hard links pays one copy
      }
      renameSync(previousTmp, previousPathFor(dbPath));
    }
    renameSync(tmp, dbPath);
  } finally {
    rmSync(tmp, { force: true });
    rmSync(previousTmp, { force: true });
  }
  fsyncFolder(dbPath);
  notePublished(dbPath);
}

/** `<db>` as this process last published it, with its change time: a write to the file since – even one that puts
 * the modification time back – changes that. */
const publishedHere = new Map<string, FileIdentity & { ctimeMs: number }>();

function notePublished(dbPath: string): void {
  try {
    const { dev, ino, size, mtimeMs, ctimeMs } = statSync(dbPath);
    publishedHere.set(dbPath, { dev, ino, size, mtimeMs, ctimeMs });
  } catch {
    publishedHere.delete(dbPath);
  }
}

/**
 * `<db>`'s identity when it is the very file this process published last and nothing wrote to it since; undefined
 * otherwise (another process's publish, a copy put there by hand, a write in place). What a session may take as known
 * good without reading it whole; the first session of a process reads it whole before keeping it as `<db>.previous`.
 */
export function publishedByThisProcess(dbPath: string): FileIdentity | undefined {
  const noted = publishedHere.get(dbPath);
  if (!noted) return undefined;
  try {
    const { dev, ino, size, mtimeMs, ctimeMs } = statSync(dbPath);
    const same = dev === noted.dev && ino === noted.ino && size === noted.size && mtimeMs === noted.mtimeMs && ctimeMs === noted.ctimeMs;
    return same ? { dev, ino, size, mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}
