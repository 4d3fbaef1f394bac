// stdout: one line per event, then its message indented – for cron mail and a person at a terminal.
import type { Severity } from '../../config/alerts.ts';
import { eventLine } from '../payload.ts';
import { isSimulated, wholeBatch, type Channel } from './channel.ts';

export function stdoutChannel(minSeverity: Severity, stream: NodeJS.WritableStream = process.stdout): Channel {
  return {
    id: 'stdout',
    minSeverity,
    async deliver(events, context) {
      const text = events.map((e) => `${eventLine(e, isSimulated(e, context))}\n         ${e.message}\n`).join('');
      try {
        await new Promise<void>((resolve, reject) => stream.write(text, (err) => (err ? reject(err) : resolve())));
      } catch (e) {
        return wholeBatch(events, `cannot write to stdout: ${(e as Error).message}`);
      }
      return wholeBatch(events);
    },
  };
}
