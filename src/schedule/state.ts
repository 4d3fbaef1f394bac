// What the daemon remembers between restarts, beside the database (`<db>.schedule.json`, one of the store's files –
// store-files.ts): when each job last ran and for which scheduled time, so a run missed while the daemon was down is
// caught up once at start. Written atomically through src/outputs/ (temp file named clear of the store's other
// files, fsync, rename): a crash never leaves half a file, and a folder in its place is never replaced.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../outputs/atomic-file.ts';

const jobStateSchema = z.object({
  lastScheduledFor: z.string().optional(),
  lastStartedAt: z.string().optional(),
  lastFinishedAt: z.string().optional(),
  lastExitCode: z.number().optional(),
});
const stateSchema = z.object({ version: z.literal(1), jobs: z.record(z.string(), jobStateSchema) });
export type ScheduleState = z.infer<typeof stateSchema>;
export type JobState = z.infer<typeof jobStateSchema>;

const STATE_SUFFIX = '.schedule.json';

export function statePathFor(dbPath: string): string {
  return `${dbPath}${STATE_SUFFIX}`;
}

/** The saved state; an unreadable or foreign file counts as empty (the worst case is one extra catch-up run). */
export function loadState(path: string): ScheduleState {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    /* missing or not JSON */
  }
  return { version: 1, jobs: {} };
}

export function saveState(path: string, state: ScheduleState): void {
  mkdirSync(dirname(path), { recursive: true });
  const dbPath = path.endsWith(STATE_SUFFIX) ? path.slice(0, -STATE_SUFFIX.length) : undefined;
  writeFileAtomic(path, JSON.stringify(state, null, 2) + '\n', dbPath);
}
