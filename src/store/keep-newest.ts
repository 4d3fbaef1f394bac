// Before a writing session goes on from a copy, the newest data is never silently dropped for older data (issue 26
// §5). A restore by hand – an old backup copied over `<db>` or over `<db>.writer` – gives the old file a new
// modification time, so file times alone would take it for the newest. When the writer copy and `<db>` disagree, the
// session compares what each holds (copy-newest.ts) and goes on from the newer one; the older one is kept aside, never
// deleted, and one warn line says which is which and how to go back to it on purpose (`store restore --from`).
// `<db>.previous` is compared with the copy the session goes on from: the next publish replaces it, so a newer one
// (both other copies replaced by hand) is set aside first.
//
// Comparing opens both files, so it runs once per process and writer copy: a session of this process that finds the
// writer copy as this process's last session left it knows nobody replaced it since.
import { basename, relative } from 'node:path';
import type { Logger } from '../util/log.ts';
import { previousPathFor, setAside, writerPathFor } from './copies.ts';
import { holdsNewer, readHolding, shownRecord, type Holding } from './copy-newest.ts';
import { identityOf, publish, type FileIdentity } from './publish.ts';

type Warn = Pick<Logger, 'warn'>;

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** The writer copy as this process's last writing session left it, by writer path. */
const leftBehind = new Map<string, FileIdentity>();

/** Note the writer copy as a session of this process leaves it (call after the session closed it). */
export function rememberWriter(dbPath: string): void {
  const writer = writerPathFor(dbPath);
  const id = identityOf(writer);
  if (id) leftBehind.set(writer, id);
  else leftBehind.delete(writer);
}

function sameAsLeft(dbPath: string): boolean {
  const writer = writerPathFor(dbPath);
  const left = leftBehind.get(writer);
  const now = identityOf(writer);
  return left !== undefined && now !== undefined && left.dev === now.dev && left.ino === now.ino && left.size === now.size && left.mtimeMs === now.mtimeMs;
}

/** `<db>.previous` holds newer data than the copy a session goes on from: set it aside before a publish replaces it. */
async function keepNewerPrevious(dbPath: string, goingOn: Holding, log?: Warn): Promise<void> {
  const previous = previousPathFor(dbPath);
  const held = identityOf(previous) ? await readHolding(previous) : undefined;
  if (!held || !holdsNewer(held, goingOn)) return;
  const aside = setAside(dbPath, previous, 'previous');
  log?.warn(
    `${shown(previous)} holds newer data (newest record ${shownRecord(held.newest)}) than the copy this session goes on from (${shownRecord(goingOn.newest)}): kept it as ${shown(aside)} so no publish replaces it; gpuledger store restore --from ${basename(aside)} brings it back`,
  );
}

/**
 * `<db>` was written since the last publish and checks good (`published` is what it holds). When the writer copy holds
 * newer data, `<db>` was replaced by an older copy: it is set aside and the writer copy published again. Returns
 * whether that happened.
 */
export async function keepNewerWriter(dbPath: string, published: Holding, log?: Warn): Promise<boolean> {
  const writerPath = writerPathFor(dbPath);
  const writer = identityOf(writerPath) ? await readHolding(writerPath) : undefined;
  if (!writer || !holdsNewer(writer, published)) {
    await keepNewerPrevious(dbPath, published, log);
    return false;
  }
  const aside = setAside(dbPath, dbPath, 'published');
  // <db> is out of the way, so this publish rotates no generation: <db>.previous stays what it was
  await publish(dbPath, writerPath);
  log?.warn(
    `${shown(dbPath)} was replaced by a copy holding older data (newest record ${shownRecord(published.newest)}) than the writer copy (${shownRecord(writer.newest)}): kept it as ${shown(aside)} and published the writer copy again; to go back to it on purpose: gpuledger store restore --from ${basename(aside)}`,
  );
  await keepNewerPrevious(dbPath, writer, log);
  return true;
}

/**
 * `<db>` was not written since the last publish, but the writer copy may have been (replaced by hand) since this
 * process last left it. When `<db>` holds newer data, the writer copy is set aside and the session goes on from
 * `<db>`. Returns whether that happened; `replaceWriter` copies `<db>` to the writer copy.
 */
export async function keepNewerPublished(dbPath: string, replaceWriter: () => void, log?: Warn): Promise<boolean> {
  if (sameAsLeft(dbPath)) return false;
  const writerPath = writerPathFor(dbPath);
  const writer = await readHolding(writerPath);
  // an unreadable writer copy is the session's open to find and recover (writer-copy.ts recoverWriter)
  if (!writer) return false;
  const published = await readHolding(dbPath);
  if (!published || !holdsNewer(published, writer)) {
    await keepNewerPrevious(dbPath, writer, log);
    return false;
  }
  const aside = setAside(dbPath, writerPath, 'writer');
  replaceWriter();
  log?.warn(
    `the writer copy ${shown(writerPath)} holds older data (newest record ${shownRecord(writer.newest)}) than ${shown(dbPath)} (${shownRecord(published.newest)}) – it was replaced since the last publish: kept it as ${shown(aside)} and went on from ${shown(dbPath)}; to go back to it on purpose: gpuledger store restore --from ${basename(aside)}`,
  );
  await keepNewerPrevious(dbPath, published, log);
  return true;
}
