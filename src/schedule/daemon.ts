// The scheduler loop: jobs fire on their cron expressions in the configured zone (next-fire.ts), one at a time –
// they share one database – and never overlapping themselves: a job whose fire time comes while its previous run
// is still going skips that trigger (logged); another job that came due meanwhile runs right after. A daily job
// missed while the daemon was down runs once at start. stop() lets the running job finish its step and ends the
// loop. Time comes from an injected clock so tests can walk through DST changes in milliseconds.
import type { JobConfig } from '../config/schedule.ts';
import { isHolderAlive, lockPathFor, readLock, syncLockPathFor } from '../store/lock.ts';
import type { Logger } from '../util/log.ts';
import { parseCron, type CronFields } from '../util/cron-expression.ts';
import { nextFire, previousFire } from './next-fire.ts';
import { loadState, saveState, type ScheduleState } from './state.ts';
import { formatInZone } from './zoned-time.ts';

export interface SchedulerClock {
  now(): number;
  /** Resolve after ms, or early when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realSchedulerClock: SchedulerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    }),
};

export interface JobRun {
  job: JobConfig;
  /** The fire time this run is for. */
  scheduledFor: number;
  reason: 'schedule' | 'catch-up';
}

/** Runs one job to its end; on `signal` abort it should let the step in flight finish and return. */
export type JobRunner = (run: JobRun, signal: AbortSignal) => Promise<{ exitCode: number }>;

export interface SchedulerOptions {
  jobs: readonly JobConfig[];
  timeZone: string;
  dbPath: string;
  statePath: string;
  runJob: JobRunner;
  log: Logger;
  clock?: SchedulerClock;
  /** How long a due job waits for another process holding the database (default 30 min). */
  waitForDatabaseMs?: number;
  /** Longest single sleep, so a suspended machine or a changed system clock is noticed (default 60 s). */
  maxSleepMs?: number;
}

interface Entry {
  job: JobConfig;
  fields: CronFields;
  catchUp: boolean;
  next: number;
}

export class Scheduler {
  private readonly clock: SchedulerClock;
  private readonly entries: Entry[];
  private readonly stopController = new AbortController();
  private state: ScheduleState;

  constructor(private readonly options: SchedulerOptions) {
    this.clock = options.clock ?? realSchedulerClock;
    this.state = loadState(options.statePath);
    const now = this.clock.now();
    this.entries = options.jobs
      .filter((j) => j.enabled)
      .map((job) => {
        const fields = parseCron(job.cron);
        return { job, fields, catchUp: job.catchUp ?? fields.atMostDaily, next: nextFire(fields, options.timeZone, now) };
      });
  }

  /** The next fire time of each enabled job (for the start-up log and `schedule --list`). */
  upcoming(): { name: string; command: string; next: string }[] {
    return this.entries.map((e) => ({ name: e.job.name, command: e.job.command, next: formatInZone(e.next, this.options.timeZone) }));
  }

  get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  /** Ask the loop to end: the job in flight gets the signal (finishes its step), nothing new starts. */
  stop(): void {
    this.stopController.abort();
  }

  /** Run until stop(). */
  async start(): Promise<void> {
    const { log, timeZone } = this.options;
    const signal = this.stopController.signal;
    for (const u of this.upcoming()) log.info(`job ${u.name} (${u.command}) next at ${u.next}`);
    for (const e of this.entries) {
      if (!e.catchUp || signal.aborted) continue;
      const missed = previousFire(e.fields, timeZone, this.clock.now());
      const last = this.state.jobs[e.job.name]?.lastScheduledFor;
      // a job that never ran under this daemon missed nothing: a first start waits for the first fire time
      if (missed !== undefined && last !== undefined && Date.parse(last) < missed) {
        log.info(`job ${e.job.name}: the run due at ${formatInZone(missed, timeZone)} was missed; catching up now`);
        await this.runOne({ job: e.job, scheduledFor: missed, reason: 'catch-up' });
      }
    }
    while (!signal.aborted) {
      const now = this.clock.now();
      const due = this.entries.filter((e) => e.next <= now).sort((a, b) => a.next - b.next);
      if (due.length === 0) {
        const wake = Math.min(...this.entries.map((e) => e.next));
        if (!Number.isFinite(wake)) {
          log.warn('no enabled jobs; nothing to do until stopped');
          await this.clock.sleep(this.options.maxSleepMs ?? 60_000, signal);
          continue;
        }
        await this.clock.sleep(Math.min(wake - now, this.options.maxSleepMs ?? 60_000), signal);
        continue;
      }
      for (const e of due) {
        if (signal.aborted) break;
        const scheduledFor = e.next;
        await this.runOne({ job: e.job, scheduledFor, reason: 'schedule' });
        // fire times of this job that passed while it ran are skipped, not queued: no job overlaps itself
        const after = this.clock.now();
        let skipped = 0;
        e.next = nextFire(e.fields, timeZone, scheduledFor);
        while (e.next <= after) {
          skipped += 1;
          e.next = nextFire(e.fields, timeZone, e.next);
        }
        if (skipped > 0) log.warn(`job ${e.job.name}: skipped ${skipped} trigger(s) that came while its previous run was still going`);
      }
    }
    log.info('scheduler stopped');
  }

  private async waitForDatabase(job: JobConfig): Promise<boolean> {
    const limit = this.clock.now() + (this.options.waitForDatabaseMs ?? 30 * 60_000);
    let announced = false;
    for (;;) {
      // a manual sync holds the sync lock for its whole run, any writer the write lock for a short session
      const holder = [syncLockPathFor(this.options.dbPath), lockPathFor(this.options.dbPath)]
        .map((path) => readLock(path))
        .find((h) => h && h.pid !== process.pid && isHolderAlive(h));
      if (!holder) return true;
      if (this.clock.now() >= limit || this.stopController.signal.aborted) {
        this.options.log.error(`job ${job.name}: skipped – the database is still held by pid ${holder.pid} (${holder.command} since ${holder.startedAt})`);
        return false;
      }
      if (!announced) this.options.log.info(`job ${job.name}: waiting for pid ${holder.pid} (${holder.command}) to release the database`);
      announced = true;
      await this.clock.sleep(5_000, this.stopController.signal);
    }
  }

  private async runOne(run: JobRun): Promise<void> {
    const { log, timeZone } = this.options;
    const name = run.job.name;
    const when = formatInZone(run.scheduledFor, timeZone);
    if (!(await this.waitForDatabase(run.job))) return;
    const started = this.clock.now();
    this.state.jobs[name] = { ...this.state.jobs[name], lastScheduledFor: new Date(run.scheduledFor).toISOString(), lastStartedAt: new Date(started).toISOString() };
    saveState(this.options.statePath, this.state);
    log.info(`job ${name} (${[run.job.command, ...run.job.args].join(' ')}) started${run.reason === 'catch-up' ? ' to catch up' : ''} for ${when}`);
    let exitCode: number;
    try {
      exitCode = (await this.options.runJob(run, this.stopController.signal)).exitCode;
    } catch (e) {
      log.error(`job ${name}: could not be started: ${(e as Error).message}`);
      exitCode = 1;
    }
    const finished = this.clock.now();
    this.state.jobs[name] = { ...this.state.jobs[name], lastFinishedAt: new Date(finished).toISOString(), lastExitCode: exitCode };
    saveState(this.options.statePath, this.state);
    const outcome = exitCode === 0 ? 'succeeded' : exitCode === 3 ? 'partly failed (exit 3)' : `failed (exit ${exitCode})`;
    const line = `job ${name} ${outcome} in ${Math.round((finished - started) / 1000)} s (scheduled for ${when})`;
    if (exitCode === 0) log.info(line);
    else log.error(line);
  }
}
