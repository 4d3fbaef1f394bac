// An NDJSON file: one event per line, appended, for log shippers and `jq`. The batch is written with one append so
// a reader never sees half of it; each line carries its idempotency key (the event id) for readers that dedupe.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Severity } from '../../config/alerts.ts';
import { redact } from '../../util/secrets.ts';
import { eventPayload } from '../payload.ts';
import { isSimulated, wholeBatch, type Channel } from './channel.ts';

export function fileChannel(path: string, minSeverity: Severity): Channel {
  return {
    id: `file:${path}`,
    minSeverity,
    async deliver(events, context) {
      const lines = events.map((e) => redact(JSON.stringify(eventPayload(e, isSimulated(e, context))))).join('\n') + '\n';
      try {
        await mkdir(dirname(path), { recursive: true });
        await appendFile(path, lines, 'utf8');
      } catch (e) {
        return wholeBatch(events, `cannot append to ${path}: ${(e as Error).message}`);
      }
      return wholeBatch(events);
    },
  };
}
