// `gpuledger schedule [--list]`: the daemon that runs the configured jobs (config `schedule.jobs`) on their cron
// expressions in the configured time zone, one at a time, until SIGTERM/SIGINT – which lets the running job finish
// its step. A second daemon for the same database is refused. --list prints the jobs and their next runs and exits.
import type { Command } from 'commander';
import { DatabaseLockedError } from '../../util/errors.ts';
import type { GlobalOptions } from '../context.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';

export function registerSchedule(program: Command, _exit: ExitState): void {
  program
    .command('schedule')
    .description('the daemon that runs the configured jobs on their cron expressions')
    .option('--list', 'print the jobs and their next run times, then exit')
    .action(async (flags: { list?: boolean }, command: Command) => {
      // node-cron and the scheduler load only when the daemon runs, so --help and other commands start fast
      const [{ contextFor }, { Scheduler }, { childRunner }, { statePathFor }, { acquireWriteLock, readLock }] = await Promise.all([
        import('../context.ts'),
        import('../../schedule/daemon.ts'),
        import('../../schedule/child-runner.ts'),
        import('../../schedule/state.ts'),
        import('../../store/lock.ts'),
      ]);
      const { settings, log } = contextFor(command, { demoFallback: false });
      const timeZone = settings.config.schedule.timeZone ?? settings.config.timeZone;
      const globals = command.optsWithGlobals<GlobalOptions>();
      const globalArgs = [
        ...(settings.configPath ? ['--config', settings.configPath] : []),
        '--db',
        settings.dbPath,
        // the resolved URL, without the credentials a request never sends: kept out of the jobs' command lines
        ...(globals.apiUrl ? ['--api-url', settings.apiUrl] : []),
        ...(globals.logLevel ? ['--log-level', globals.logLevel] : []),
      ];
      const scheduler = new Scheduler({
        jobs: settings.config.schedule.jobs,
        timeZone,
        dbPath: settings.dbPath,
        statePath: statePathFor(settings.dbPath),
        runJob: childRunner({ globalArgs }),
        log: log.child('schedule'),
        waitForDatabaseMs: settings.config.schedule.waitForDatabaseMinutes * 60_000,
      });
      if (flags.list) {
        for (const u of scheduler.upcoming()) print(`${u.name.padEnd(20)} ${u.command.padEnd(8)} next ${u.next} (${timeZone})`);
        return;
      }
      const daemonDb = `${settings.dbPath}.schedule`;
      let lock;
      try {
        lock = await acquireWriteLock(daemonDb, { command: 'schedule' });
      } catch (e) {
        if (!(e instanceof DatabaseLockedError)) throw e;
        const holder = readLock(`${daemonDb}.lock`);
        throw new DatabaseLockedError(`a gpuledger schedule daemon (pid ${holder?.pid ?? '?'}, since ${holder?.startedAt ?? '?'}) already runs the jobs for ${settings.dbPath}; stop it first`);
      }
      const stop = (signal: NodeJS.Signals) => {
        log.info(`${signal}: stopping after the running job's current step`);
        scheduler.stop();
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      try {
        // start() returns once stopped and the job in flight has finished
        await scheduler.start();
      } finally {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        lock.release();
      }
    });
}
