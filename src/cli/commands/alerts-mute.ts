// `gpuledger alerts mute <key> --for 7d | --until RFC3339` and `gpuledger alerts unmute <key>`: silence one incident or finding
// (its alert key, as `alerts --dry-run` and serve's alerts page show it) or one rule (budget, anomaly, …) on purpose,
// until a moment (src/alert/mutes.ts). The mute is written in one short writing session of the store, like the alert
// state it holds back. A bad key, a bad or past --until, or unmuting what is not muted: one line, exit 2.
import type { Command } from 'commander';
import { parseRfc3339 } from '../../util/dates.ts';
import { parseDuration } from '../../util/duration.ts';
import { UsageError } from '../../util/errors.ts';
import type { Store } from '../../store/database.ts';
import { waitMs as waitOptionMs } from '../option-values.ts';

interface MuteFlags {
  until?: string;
  for?: string;
  wait?: string;
}

async function inWritingSession<T>(command: Command, wait: string | undefined, what: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const [{ contextFor }, { SESSION_WAIT_MS, writeSessions }, { storingRules }] = await Promise.all([
    import('../context.ts'),
    import('../../store/shared-database.ts'),
    import('../../allocation/load-rules.ts'),
  ]);
  const { settings, log } = contextFor(command);
  const waitMs = Math.max(waitOptionMs(wait), SESSION_WAIT_MS);
  const sessions = writeSessions({ dbPath: settings.dbPath, command: what, waitMs, log, prepare: storingRules(settings.config.allocation) });
  return sessions.write(fn);
}

/** When the mute ends: --for counts from now (an example that stays true whatever the date), --until names it. */
function muteEnd(flags: MuteFlags, now: Date): Date {
  if (flags.for !== undefined && flags.until !== undefined) throw new UsageError('alerts mute takes --for or --until, not both');
  if (flags.for !== undefined) return new Date(now.getTime() + parseDuration(flags.for, '--for'));
  if (flags.until === undefined) throw new UsageError('alerts mute needs --for DURATION (e.g. 7d) or --until RFC3339: how long the mute lasts');
  const until = parseRfc3339(flags.until, '--until');
  if (until <= now) throw new UsageError(`--until must be later than now (${now.toISOString()}), got ${flags.until}`);
  return until;
}

export function registerAlertsMute(alerts: Command): void {
  alerts
    .command('mute <key>')
    .description('silence one alert (its key, as alerts --dry-run and the alerts page show it) or one rule (budget, anomaly, waste, data_quality, runway, unit_cost) until a moment')
    .option('--for <duration>', 'how long the mute lasts from now: a whole number of minutes, hours or days (90m, 12h, 7d)')
    .option('--until <time>', 'RFC 3339 moment the mute ends, e.g. 2027-01-04T09:00:00Z')
    .option('--wait <seconds>', 'wait this long for another gpuledger process to release the database', '0')
    .action(async (key: string, flags: MuteFlags, command: Command) => {
      const { checkMuteKey, mute, muteKeyStanding } = await import('../../alert/mutes.ts');
      checkMuteKey(key);
      const now = new Date();
      const until = muteEnd(flags, now);
      const standing = await inWritingSession(command, flags.wait, 'alerts mute', async (store) => {
        const found = await muteKeyStanding(store, key);
        // a key naming no account of this database can never match one of its alerts: a typo, or a key copied from
        // another database – refused, so nobody believes an alert silenced that never will be (issue 38)
        if (!found.known && !found.namesAccount) {
          throw new UsageError(
            `'${key}' matches no alert recorded here and names no account of this database (${found.accounts.join(', ') || 'none yet'}): ` +
              'copy the key from serve\'s /alerts page (or `gpuledger alerts --dry-run`), or mute the rule',
          );
        }
        await mute(store, key, until, now);
        return found;
      });
      process.stderr.write(`muted ${key} until ${until.toISOString()}: its alerts are neither sent nor recorded until then\n`);
      // muting ahead is allowed (an incident may fire later), but said, so a mistyped key shows at once
      if (!standing.known) process.stderr.write(`warning: no alert has had the key ${key} yet: the mute holds back the first one that does\n`);
    });
  alerts
    .command('unmute <key>')
    .description('end the mute of one alert or rule now: the next alerts run sends what it holds')
    .option('--wait <seconds>', 'wait this long for another gpuledger process to release the database', '0')
    .action(async (key: string, flags: MuteFlags, command: Command) => {
      const { checkMuteKey, unmute } = await import('../../alert/mutes.ts');
      checkMuteKey(key);
      await inWritingSession(command, flags.wait, 'alerts unmute', (store) => unmute(store, key, new Date()));
      process.stderr.write(`unmuted ${key}: the next alerts run sends its alerts\n`);
    });
}
