// What the daemon remembers between restarts, beside the database (`<db>.schedule.json`): when each job last ran
// and for which scheduled time, so a run missed while the daemon was down is caught up once at start. Written
// atomically (temp file, rename): a crash never leaves half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

const jobStateSchema = z.object({
  lastScheduledFor: z.string().optional(),
  lastStartedAt: z.string().optional(),
  lastFinishedAt: z.string().optional(),
  lastExitCode: z.number().optional(),
});
const stateSchema = z.object({ version: z.literal(1), jobs: z.record(z.string(), jobStateSchema) });
export type ScheduleState = z.infer<typeof stateSchema>;
export type JobState = z.infer<typeof jobStateSchema>;

export function statePathFor(dbPath: string): string {
  return `${dbPath}.schedule.json`;
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
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
  renameSync(tmp, path);
}
