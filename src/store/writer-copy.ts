// Getting a writer copy that can be trusted before a writing session (issue 18 §2). Three cases:
// - `<db>` is not newer than `<db>.writer`: nothing changed behind gpuledger's back, the writer copy is used as it is;
// - `<db>` was written since the last publish (an older gpuledger, a restored backup – or a stray file written over
//   it): it is adopted only once it checks good (copy-check.ts); otherwise it is set aside and the session goes on
//   from the newest good copy, saying in one line which file is damaged and which one is used;
// - `<db>` and the writer copy disagree on what they hold (a backup copied over either by hand): the session goes on
//   from the one holding newer data, keeping the other aside (keep-newest.ts);
// - the writer copy itself cannot be opened: it is set aside and rebuilt from the newest good copy beside it.
// With no good copy at all, the error names every damaged file and what to do.
import { existsSync, rmSync, statSync, utimesSync } from 'node:fs';
import { relative } from 'node:path';
import { DatabaseDamagedError, DatabaseLockedError, StoreCopiesError, StoreError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { mainCopies, setAside, writerPathFor, type CopyFile } from './copies.ts';
import { checkCopy, duckDbWords, type CopyCheck } from './copy-check.ts';
import { keepNewerPublished, keepNewerWriter } from './keep-newest.ts';
import { copyDurably, identityOf, publishedByThisProcess, type FileIdentity } from './publish.ts';

type Warn = Pick<Logger, 'warn'>;

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** "last run 2026-11-20T02:00:00Z" – what a person needs to judge a copy. */
function describeGood(check: CopyCheck): string {
  return check.lastRun ? `last run ${check.lastRun}` : 'no run recorded yet';
}

/** The first good copy among `candidates` (in order), with the checks of those that were not. */
async function firstGood(candidates: readonly CopyFile[]): Promise<{ good?: CopyCheck; bad: CopyCheck[] }> {
  const bad: CopyCheck[] = [];
  for (const c of candidates) {
    if (!existsSync(c.path)) continue;
    const check = await checkCopy(c.path);
    if (check.state === 'good') return { good: check, bad };
    if (check.state === 'in-use') throw new DatabaseLockedError(`${shown(c.path)} is open read-write in another program; close it there (or open it read-only) and try again`);
    bad.push(check);
  }
  return { bad };
}

/** Copy `from` (and its WAL) to the writer copy, stamped with `from`'s time so the next writer sees nothing newer. */
export function replaceWriter(dbPath: string, from: string): void {
  const writer = writerPathFor(dbPath);
  // a WAL is part of the file it belongs to: the old writer copy's would be replayed onto the new one
  rmSync(`${writer}.wal`, { force: true });
  copyDurably(from, writer);
  if (existsSync(`${from}.wal`)) copyDurably(`${from}.wal`, `${writer}.wal`);
  const { atime, mtime } = statSync(from);
  utimesSync(writer, atime, mtime);
}

function noGoodCopy(dbPath: string, bad: readonly CopyCheck[]): never {
  const first = bad[0];
  if (bad.length === 1 && first) throw new DatabaseDamagedError(first.path, new Error(first.problem ?? 'damaged'));
  const list = bad.map((b) => `${shown(b.path)} (${b.problem})`).join(', ');
  throw new StoreCopiesError(
    `no good copy of ${shown(dbPath)}: ${list}; gpuledger store check lists them; move them aside and run gpuledger sync to rebuild from the platform (data only kept locally needs a backup)`,
  );
}

/**
 * Make `<db>.writer` the copy to write on; call with the write lock held. Returns `<db>`'s identity when it was read
 * whole and found good here (the next publish may keep it as `<db>.previous` without checking it again).
 */
export async function prepareWriterCopy(dbPath: string, log?: Warn): Promise<FileIdentity | undefined> {
  const writer = writerPathFor(dbPath);
  const published = identityOf(dbPath);
  const writerTime = identityOf(writer)?.mtimeMs;
  if (published === undefined) return undefined;
  if (writerTime !== undefined && published.mtimeMs <= writerTime + 1) {
    // <db> is as the last publish left it by its file time; the writer copy may still have been replaced by an older
    // one. Neither the time nor DuckDB's magic bytes say <db> is good – a bad disk changes blocks, not file times (issue
    // 37 §5) – so only the file this process published itself, untouched since, is vouched for; any other is read
    // whole by the publish before it is kept as <db>.previous
    if (await keepNewerPublished(dbPath, () => replaceWriter(dbPath, dbPath), log)) return undefined;
    return publishedByThisProcess(dbPath);
  }
  // <db> was written since the last publish: adopt it only if it is a gpuledger database this version can write, and
  // never over newer data in the writer copy (a backup copied over <db> by hand)
  const check = await checkCopy(dbPath);
  if (check.state === 'good') {
    if (writerTime !== undefined && (await keepNewerWriter(dbPath, { newest: check.newest }, log))) return identityOf(dbPath);
    replaceWriter(dbPath, dbPath);
    return identityOf(dbPath);
  }
  if (check.state === 'in-use') throw new DatabaseLockedError(`${shown(dbPath)} is open read-write in another program; open it read-only there so gpuledger can write`);
  if (check.state === 'newer') throw new StoreError(`database ${shown(dbPath)} has ${check.problem}; upgrade gpuledger`);
  const { good, bad } = await firstGood(mainCopies(dbPath).filter((c) => c.role !== 'published'));
  if (!good) noGoodCopy(dbPath, [check, ...bad]);
  const aside = setAside(dbPath, dbPath, 'published');
  if (good.path !== writer) {
    if (existsSync(writer)) setAside(dbPath, writer, 'writer');
    replaceWriter(dbPath, good.path);
  }
  log?.warn(`${shown(dbPath)} was written since the last publish and is damaged (${check.problem}), so it was not adopted: kept it as ${shown(aside)} and went on from the good copy ${shown(good.path)} (${describeGood(good)})`);
  return undefined;
}

/** The writer copy could not be opened (`cause`): set it aside and rebuild it from the newest good copy beside it. */
export async function recoverWriter(dbPath: string, cause: unknown, log?: Warn): Promise<FileIdentity | undefined> {
  const writer = writerPathFor(dbPath);
  const { good, bad } = await firstGood(mainCopies(dbPath).filter((c) => c.path !== writer));
  const { size: bytes, mtime: modified } = statSync(writer);
  const damaged: CopyCheck = { path: writer, state: 'damaged', problem: duckDbWords(cause), bytes, modified };
  if (!good) noGoodCopy(dbPath, [damaged, ...bad]);
  const aside = setAside(dbPath, writer, 'writer');
  replaceWriter(dbPath, good.path);
  log?.warn(`the writer copy ${shown(writer)} is damaged (${damaged.problem}): kept it as ${shown(aside)} and recovered it from the good copy ${shown(good.path)} (${describeGood(good)})`);
  return good.path === dbPath ? identityOf(dbPath) : undefined;
}
