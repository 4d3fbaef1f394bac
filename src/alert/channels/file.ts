// An NDJSON file: one event per line, appended, for log shippers and `jq`. The batch is written with one append and
// fsynced before it counts as delivered; each line carries its idempotency key (the event id) for readers that dedupe.
// The file is its own receipt: before appending, the events whose id is already in it are taken as delivered and not
// written again, so a run killed between the append and recording it (journal.ts) never leaves a line twice. A line
// cut short by a kill (no newline at the end of the file) is ours and incomplete: it is cut off before appending, and
// its event, not being in the file, is written whole.
import { createReadStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Severity } from '../../config/alerts.ts';
import { redact } from '../../util/secrets.ts';
import { eventPayload } from '../payload.ts';
import type { AlertEvent } from '../types.ts';
import { isSimulated, wholeBatch, type Channel } from './channel.ts';

const EVENT_ID = /"event_id":"([^"]+)"/;
const OUR_LINE = '{"source":"gpuledger"';

/** Bytes up to and including the file's last newline: what follows it is a line cut short. */
async function completeLength(handle: FileHandle): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = (await handle.stat()).size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

/** The owed event ids already on complete lines of the file (read as a stream: the file only grows). */
async function alreadyInFile(path: string, owed: ReadonlySet<string>, complete: number): Promise<Set<string>> {
  const found = new Set<string>();
  if (complete === 0) return found;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8', end: complete - 1 }), crlfDelay: Infinity });
  for await (const line of lines) {
    const id = EVENT_ID.exec(line)?.[1];
    if (id !== undefined && owed.has(id)) found.add(id);
  }
  return found;
}

async function appendDurably(path: string, events: readonly AlertEvent[], simulated: Parameters<typeof isSimulated>[1]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'a+');
  try {
    const size = (await handle.stat()).size;
    const complete = await completeLength(handle);
    const found = await alreadyInFile(path, new Set(events.map((e) => e.eventId)), complete);
    if (complete < size) {
      const head = Buffer.alloc(OUR_LINE.length);
      const { bytesRead } = await handle.read(head, 0, head.length, complete);
      // our own line cut short goes; someone else's stays theirs, on a line of its own
      if (OUR_LINE.startsWith(head.subarray(0, bytesRead).toString('utf8'))) await handle.truncate(complete);
      else await handle.appendFile('\n');
    }
    const fresh = events.filter((e) => !found.has(e.eventId));
    if (fresh.length > 0) await handle.appendFile(fresh.map((e) => redact(JSON.stringify(eventPayload(e, isSimulated(e, simulated))))).join('\n') + '\n', 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function fileChannel(path: string, minSeverity: Severity): Channel {
  return {
    id: `file:${path}`,
    minSeverity,
    async deliver(events, context) {
      try {
        await appendDurably(path, events, context);
      } catch (e) {
        return wholeBatch(events, `cannot append to ${path}: ${(e as Error).message}`);
      }
      return wholeBatch(events);
    },
  };
}
