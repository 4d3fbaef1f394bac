// The scheduler loop driven by an injected clock: jobs fire at the right local times across a DST change, a job never
// overlaps itself (triggers during its run are skipped, other due jobs run right after), a missed daily run is caught
// up at start, stop() lets the job in flight finish, and a database held by another process makes a job wait.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobSchema, type JobConfig } from '../../src/config/schedule.ts';
import { Scheduler, type JobRun, type SchedulerClock } from '../../src/schedule/daemon.ts';
import { loadState, saveState } from '../../src/schedule/state.ts';
import { lockPathFor } from '../../src/store/lock.ts';
import { createLogger, type Logger } from '../../src/util/log.ts';
import { Writable } from 'node:stream';
import { tempDir } from '../helpers/temp-dir.ts';

const job = (name: string, cron: string, extra: Partial<JobConfig> = {}): JobConfig => jobSchema.parse({ name, cron, command: 'sync', ...extra });

/** Time moves only when the scheduler sleeps or a job "takes" time; the run ends when the clock passes `until`. */
class FakeClock implements SchedulerClock {
  t: number;
  stopAt?: () => void;
  constructor(
    start: string,
    readonly until: number,
  ) {
    this.t = Date.parse(start);
  }
  now() {
    return this.t;
  }
  async sleep(ms: number, signal: AbortSignal) {
    if (signal.aborted) return;
    this.t += Math.max(ms, 1);
    if (this.t >= this.until) this.stopAt?.();
    await Promise.resolve();
  }
}

function logCapture(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...chunk.toString().trim().split('\n'));
      cb();
    },
  });
  return { log: createLogger({ stream, timestamps: false, level: 'info' }), lines };
}

const dirs: string[] = [];
function tmp(): string {
  const d = tempDir('gpuledger-schedule-').dir;
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Fired {
  name: string;
  at: string;
  scheduledFor: string;
  reason: JobRun['reason'];
}

async function simulate(options: {
  jobs: JobConfig[];
  timeZone: string;
  start: string;
  until: string;
  durationMs?: (name: string) => number;
  statePath?: string;
  dbPath?: string;
  waitForDatabaseMs?: number;
}) {
  const dir = tmp();
  const clock = new FakeClock(options.start, Date.parse(options.until));
  const fired: Fired[] = [];
  const { log, lines } = logCapture();
  const scheduler = new Scheduler({
    jobs: options.jobs,
    timeZone: options.timeZone,
    dbPath: options.dbPath ?? join(dir, 'ledger.duckdb'),
    statePath: options.statePath ?? join(dir, 'ledger.duckdb.schedule.json'),
    clock,
    log,
    waitForDatabaseMs: options.waitForDatabaseMs,
    runJob: async (run) => {
      fired.push({ name: run.job.name, at: new Date(clock.t).toISOString(), scheduledFor: new Date(run.scheduledFor).toISOString(), reason: run.reason });
      clock.t += options.durationMs?.(run.job.name) ?? 60_000;
      return { exitCode: 0 };
    },
  });
  clock.stopAt = () => scheduler.stop();
  await scheduler.start();
  return { fired, lines };
}

describe('the scheduler', () => {
  it('runs the nightly job at 06:00 Berlin time before and after the autumn DST change, and hourly jobs every real hour', async () => {
    const { fired } = await simulate({
      jobs: [job('nightly', '0 6 * * *', { command: 'run' }), job('hourly', '15 * * * *')],
      timeZone: 'Europe/Berlin',
      start: '2026-10-24T00:00:00Z',
      until: '2026-10-26T12:00:00Z',
    });
    expect(fired.filter((f) => f.name === 'nightly').map((f) => f.at)).toEqual([
      '2026-10-24T04:00:00.000Z',
      '2026-10-25T05:00:00.000Z',
      '2026-10-26T05:00:00.000Z',
    ]);
    // from 2026-10-24 00:00Z to 2026-10-26 12:00Z is 60 real hours, each with one :15
    const hourly = fired.filter((f) => f.name === 'hourly');
    expect(hourly).toHaveLength(60);
    expect(new Set(hourly.map((f) => f.at)).size).toBe(60);
  });

  it('never overlaps a job with itself: triggers during a long run are skipped, another due job runs right after', async () => {
    const { fired, lines } = await simulate({
      jobs: [job('slow', '0 * * * *'), job('daily', '0 1 * * *')],
      timeZone: 'UTC',
      start: '2026-11-23T23:59:00Z',
      until: '2026-11-24T04:30:00Z',
      durationMs: (name) => (name === 'slow' ? 150 * 60_000 : 60_000),
    });
    expect(fired.map((f) => `${f.name} ${f.at.slice(11, 16)} for ${f.scheduledFor.slice(11, 16)}`)).toEqual([
      'slow 00:00 for 00:00',
      'daily 02:30 for 01:00', // due while slow ran: right after it
      'slow 03:00 for 03:00', // 01:00 and 02:00 were skipped
    ]);
    expect(lines.some((l) => /job slow: skipped 2 trigger\(s\) that came while its previous run was still going/.test(l))).toBe(true);
  });

  it('catches up a missed daily run once at start, and not an hourly one', async () => {
    const dir = tmp();
    const statePath = join(dir, 'state.json');
    saveState(statePath, { version: 1, jobs: { nightly: { lastScheduledFor: '2026-11-21T06:00:00.000Z' }, hourly: { lastScheduledFor: '2026-11-21T06:00:00.000Z' } } });
    const { fired, lines } = await simulate({
      jobs: [job('nightly', '0 6 * * *'), job('hourly', '0 * * * *')],
      timeZone: 'UTC',
      start: '2026-11-23T09:10:00Z',
      until: '2026-11-23T10:30:00Z',
      statePath,
    });
    expect(fired.map((f) => `${f.name} ${f.reason} ${f.at.slice(11, 16)} for ${f.scheduledFor.slice(0, 16)}`)).toEqual([
      'nightly catch-up 09:10 for 2026-11-23T06:00',
      'hourly schedule 10:00 for 2026-11-23T10:00',
    ]);
    expect(lines.some((l) => l.includes('job nightly: the run due at 2026-11-23 06:00 +00:00 was missed; catching up now'))).toBe(true);
    expect(loadState(statePath).jobs.nightly?.lastScheduledFor).toBe('2026-11-23T06:00:00.000Z');
    // a second start the same morning has nothing to catch up
    const again = await simulate({ jobs: [job('nightly', '0 6 * * *')], timeZone: 'UTC', start: '2026-11-23T10:40:00Z', until: '2026-11-23T11:00:00Z', statePath });
    expect(again.fired).toEqual([]);
  });

  it('lets the running job finish when stopped, and starts nothing after it', async () => {
    const dir = tmp();
    const clock = new FakeClock('2026-11-23T05:59:00Z', Date.parse('2026-11-24T00:00:00Z'));
    const { log } = logCapture();
    const events: string[] = [];
    const scheduler = new Scheduler({
      jobs: [job('nightly', '0 6 * * *'), job('hourly', '30 * * * *')],
      timeZone: 'UTC',
      dbPath: join(dir, 'db.duckdb'),
      statePath: join(dir, 'state.json'),
      clock,
      log,
      runJob: async (run, signal) => {
        events.push(`start ${run.job.name}`);
        scheduler.stop(); // SIGTERM arrives while the job runs
        expect(signal.aborted).toBe(true);
        clock.t += 10 * 60_000;
        events.push(`finish ${run.job.name}`);
        return { exitCode: 0 };
      },
    });
    clock.stopAt = () => scheduler.stop();
    await scheduler.start();
    expect(events).toEqual(['start nightly', 'finish nightly']);
  });

  it('waits for another process holding the database, then skips the run with a log line', async () => {
    const dir = tmp();
    const db = join(dir, 'db.duckdb');
    // the parent process (vitest's) is alive and is not us: a real holder
    writeFileSync(lockPathFor(db), JSON.stringify({ pid: process.ppid, command: 'sync', startedAt: '2026-11-23T05:58:00Z' }));
    const { fired, lines } = await simulate({
      jobs: [job('nightly', '0 6 * * *', { catchUp: false })],
      timeZone: 'UTC',
      start: '2026-11-23T05:59:00Z',
      until: '2026-11-23T07:00:00Z',
      dbPath: db,
      waitForDatabaseMs: 60_000,
    });
    expect(fired).toEqual([]);
    expect(lines.some((l) => l.includes(`job nightly: waiting for pid ${process.ppid} (sync) to release the database`))).toBe(true);
    expect(lines.some((l) => l.includes(`job nightly: skipped – the database is still held by pid ${process.ppid}`))).toBe(true);
  });
});
