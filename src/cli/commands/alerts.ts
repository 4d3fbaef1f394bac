// `gpuledger alerts [--dry-run] [--as-of RFC3339 [--with-restatements]] [--wait S]`: evaluate the alert rules and
// deliver new, escalated and resolved alerts – and what earlier runs could not deliver – to the configured channels.
// The database is held only while evaluating and while recording outcomes, never while a channel is being reached.
// --dry-run --as-of back-tests the rules at a past moment on the data as loaded then (--with-restatements: as loaded
// now), against the alert state as it stood then;
// --dry-run prints what would be sent and changes nothing. Exit 3 when a rule or a channel failed, or a channel still
// owes events (the rest still ran). TERM or INT: deliveries in flight finish, none starts, what was acknowledged is
// recorded, and the command ends with one line and exit 3; a second signal ends it at once (exit 1) – what was
// acknowledged is in the delivery journal by then (src/alert/journal.ts) and the next run folds it in.
// `alerts mute <key> --until T` and `alerts unmute <key>` are subcommands (alerts-mute.ts).
import type { Command } from 'commander';
import { parseRfc3339 } from '../../util/dates.ts';
import { parseDuration } from '../../util/duration.ts';
import { EXIT, UsageError } from '../../util/errors.ts';
import { exitWith } from '../last-resort.ts';
import type { ExitState } from '../exit-state.ts';
import type { Store } from '../../store/database.ts';
import { storingConfig } from '../../alert/store-config.ts';
import { registerAlertsMute } from './alerts-mute.ts';
import { waitMs as waitOptionMs } from '../option-values.ts';

// a back-test compares with the alert state as it stood at --as-of (src/alert/state-then.ts): recording its events
// into today's state would announce again what is already open, so it can only say what would have been sent
const BACK_TEST_PRINTS_ONLY = '--as-of back-tests the rules against the alert state as it stood then and sends nothing: add --dry-run';

interface AlertsFlags {
  dryRun?: boolean;
  asOf?: string;
  withRestatements?: boolean;
  wait?: string;
}

export function registerAlerts(program: Command, exit: ExitState): void {
  const alerts = program.command('alerts');
  registerAlertsMute(alerts);
  alerts
    .description('evaluate alert rules and deliver new, escalated and resolved alerts (and any still owed)')
    .option('--dry-run', 'print what would be sent; change no alert state and send nothing')
    .option('--as-of <time>', 'with --dry-run: evaluate as of this RFC 3339 moment (or a duration back from now: 36h, 3d), on the data as it was loaded then and against the alert state of then (back-test a rule on history)')
    .option('--with-restatements', 'with --as-of: evaluate on the data as loaded now, later restatements included')
    .option('--wait <seconds>', 'wait this long for another gpuledger process to release the database', '0')
    .action(async (flags: AlertsFlags, command: Command) => {
      // before anything loads: a stop during start-up or evaluation is told like one during delivery
      const controller = new AbortController();
      let log: { warn(m: string): void } | undefined;
      const stop = (signal: NodeJS.Signals) => {
        if (controller.signal.aborted) {
          exitWith(`gpuledger: ${signal} again: stopped at once; what the channels acknowledged is recorded, the rest goes out on the next run`, EXIT.failure);
        }
        log?.warn(`${signal}: finishing the deliveries in flight, then stopping (again to stop at once)`);
        controller.abort(signal);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      try {
        const [{ contextFor }, { checkFileChannels }] = await Promise.all([import('../context.ts'), import('../../alert/channels/file-path.ts')]);
        const context = contextFor(command);
        const { settings } = context;
        log = context.log;
        // a file channel aimed at the store's files is a configuration error, refused before anything loads or runs
        if (!flags.dryRun) checkFileChannels(settings.config, { outDir: settings.config.outDir, dbPath: settings.dbPath });
        // implementations load only when the command runs, so --help and other commands start fast (issue 11)
        const [{ SESSION_WAIT_MS, writeSessions }, { runAlerts }, { withRulesReader }] = await Promise.all([
          import('../../store/shared-database.ts'),
          import('../../alert/index.ts'),
          import('../../allocation/reader-rules.ts'),
        ]);
        // a duration counts back from now (`3d`: three days ago), so an example or a script stays true whatever the date
        const asOf = flags.asOf === undefined ? undefined : /^\d+[mhd]$/.test(flags.asOf) ? new Date(Date.now() - parseDuration(flags.asOf, '--as-of')) : parseRfc3339(flags.asOf, '--as-of');
        if (flags.withRestatements && asOf === undefined) {
          throw new UsageError('--with-restatements only applies to a back-test: pass --as-of RFC3339 too');
        }
        if (asOf !== undefined && !flags.dryRun) throw new UsageError(BACK_TEST_PRINTS_ONLY);
        const waitMs = Math.max(waitOptionMs(flags.wait), SESSION_WAIT_MS);
        // a dry run changes nothing, so it only reads: no lock, no writer copy, no write access to the database folder –
        // answering with this config's allocation rules (reader-rules.ts)
        const sessions = flags.dryRun
          ? { write: <T>(fn: (store: Store) => Promise<T>) => withRulesReader(settings.dbPath, settings.config.allocation, fn) }
          : writeSessions({ dbPath: settings.dbPath, command: 'alerts', waitMs, log: context.log, prepare: storingConfig(settings.config) });
        const result = await runAlerts({
          sessions,
          dbPath: settings.dbPath,
          waitMs,
          signal: controller.signal,
          config: settings.config,
          log: context.log,
          asOf,
          withRestatements: flags.withRestatements,
          dryRun: flags.dryRun,
        });
        if (result.failedChannels.length > 0 || result.failedRules.length > 0 || result.pending.length > 0) exit.code = EXIT.partial;
        if (controller.signal.aborted && !flags.dryRun) {
          const sent = result.delivered.reduce((n, d) => n + d.events, 0);
          const owed = result.pending.reduce((n, p) => n + p.events, 0);
          const deliveries = (n: number) => `${n} deliver${n === 1 ? 'y' : 'ies'}`;
          process.stderr.write(
            `gpuledger: ${String(controller.signal.reason)}: stopped delivering alerts; ${deliveries(sent)} acknowledged and recorded, ` +
              `${deliveries(owed)} still owed (they go out on the next run)\n`,
          );
          exit.code = EXIT.partial;
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
}
