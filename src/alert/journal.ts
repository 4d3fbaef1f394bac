// The delivery journal, `<db>.alert-journal`: what channels acknowledged (or refused) during a run, appended and
// fsynced as each delivery settles, and folded into _meta_alert_outbox by the next writing session (outbox.ts
// applyJournal), after which it is removed. It is what makes "a delivery the channel acknowledged is recorded
// before the next one starts" hold without a database session open while channels are waited on
// (docs/CONTRIBUTING.md, src/store/shared-database.ts): an append with fdatasync costs a millisecond or so, where a
// writing session per acknowledgement opens the writer copy, checks migrations and views, and copies the whole
// database to publish it – a second or more per event on a real store.
// The name starts with `<db>.`, so store-files.ts counts it as the store's own file: no output flag can land on it.
//
// One line per settled (event, channel); a line cut short by a KILL is skipped when read (its delivery is then owed
// again and goes out with the same idempotency key / Message-ID). Only one process delivers at a time
// (delivery-lock.ts), so nothing appends while the journal is folded and removed.
import { closeSync, fsyncSync, openSync, rmSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { redact } from '../util/secrets.ts';
import type { ChannelOutcome } from './channels/channel.ts';

export function journalPathFor(dbPath: string): string {
  return `${dbPath}.alert-journal`;
}

const entrySchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('sent'), channel: z.string().min(1), eventId: z.string().min(1), at: z.iso.datetime() }),
  z.object({
    status: z.literal('failed'),
    channel: z.string().min(1),
    eventId: z.string().min(1),
    at: z.iso.datetime(),
    attempts: z.number().int().min(1),
    error: z.string(),
    permanent: z.boolean(),
  }),
]);

export type JournalEntry = z.infer<typeof entrySchema>;

/** The entries one settled part of a channel's outcome becomes (untried events are not settled: nothing happened). */
export function entriesOf(channel: string, part: Pick<ChannelOutcome, 'sent' | 'failed'>, at = new Date()): JournalEntry[] {
  const ts = at.toISOString();
  return [
    ...part.sent.map((eventId): JournalEntry => ({ status: 'sent', channel, eventId, at: ts })),
    ...part.failed.map(
      (f): JournalEntry => ({ status: 'failed', channel, eventId: f.eventId, at: ts, attempts: f.attempts, error: redact(f.error), permanent: f.permanent ?? false }),
    ),
  ];
}

export interface Journal {
  readonly path: string;
  /** Everything this run recorded, in order – folded at the end even if the file could not be written. */
  readonly entries: readonly JournalEntry[];
  /** Append entries and fsync; resolves once they are on disk (a failure to write rejects, after noting them here). */
  append(entries: readonly JournalEntry[]): Promise<void>;
}

export function createJournal(path: string): Journal {
  const entries: JournalEntry[] = [];
  let directorySynced = false;
  return {
    path,
    entries,
    async append(more) {
      if (more.length === 0) return;
      entries.push(...more);
      const handle = await open(path, 'a');
      try {
        await handle.appendFile(more.map((e) => JSON.stringify(e) + '\n').join(''), 'utf8');
        await handle.datasync();
      } finally {
        await handle.close();
      }
      if (!directorySynced) {
        directorySynced = true;
        syncDirectory(dirname(path)); // the file's own existence survives a power cut too
      }
    },
  };
}

/** The entries of a journal a run left behind (none if there is none), and how many lines were cut short. */
export async function readJournal(path: string): Promise<{ entries: JournalEntry[]; unreadable: number }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], unreadable: 0 };
    throw e;
  }
  const entries: JournalEntry[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = entrySchema.safeParse(parseJson(line));
    if (parsed.success) entries.push(parsed.data);
    else unreadable++;
  }
  return { entries, unreadable };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // a line cut short by a kill: counted as unreadable by the caller
  }
}

/** Remove the journal once what it holds is committed to the outbox. */
export function removeJournal(path: string): void {
  rmSync(path, { force: true });
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* some platforms cannot fsync a directory; the data itself is synced */
  }
}
