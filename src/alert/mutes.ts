// Silencing alerts on purpose (sql/schema/019_alert_mutes.sql): `gpuledger alerts mute <key> --until <time>` mutes one
// incident or finding (its alert key) or one rule (every alert of it) until a moment, `alerts unmute <key>` ends that
// early. A muted alert's events are left out of the plan (state.ts): nothing is sent and nothing recorded, so its
// state stays as it was and the first run after the mute ends says what changed meanwhile. Mutes are written in the
// store's writing session like the alert state, and kept after they end, so a back-test sees the mutes of its moment.
import type { Store } from '../store/database.ts';
import { UsageError } from '../util/errors.ts';
import { RULE_KINDS, type RuleKind } from './types.ts';

const RULES: readonly string[] = RULE_KINDS;

/** A rule name, or an alert key: `<rule>:<rest>` without spaces, as the dry run and the alerts page show it. */
export function checkMuteKey(key: string): string {
  const rule = key.split(':')[0]!;
  if (RULES.includes(key) || (RULES.includes(rule) && /^[a-z_]+:\S+$/.test(key) && key.length <= 500)) return key;
  throw new UsageError(
    `'${key}' is neither a rule nor an alert key: pass a rule (${RULE_KINDS.join(', ')}) or an alert key such as ` +
      `anomaly:<account>:driver:<family>:<resource id>, as \`gpuledger alerts --dry-run\` and the alerts page show it`,
  );
}

async function hasMutes(store: Store): Promise<boolean> {
  // a database last written by a gpuledger before mutes, opened by a reader, has no table yet: nothing is muted
  return (await store.one(`select 1 from information_schema.tables where table_name = '_meta_alert_mutes'`)) !== undefined;
}

/** Mute key → the end of the mute in force at `at` (the latest, if muted twice). */
export async function mutesAt(store: Store, at: Date): Promise<Map<string, Date>> {
  if (!(await hasMutes(store))) return new Map();
  const rows = await store.all<{ mute_key: string; until: string }>(
    `select mute_key, strftime(max(muted_until), '%Y-%m-%dT%H:%M:%S.%gZ') as until
       from _meta_alert_mutes
      where muted_at <= $at::timestamptz and muted_until > $at::timestamptz
        and (unmuted_at is null or unmuted_at > $at::timestamptz)
      group by mute_key`,
    { at: at.toISOString() },
  );
  return new Map(rows.map((r) => [r.mute_key, new Date(r.until)]));
}

/** When an alert of this key and rule is muted until, if it is (its key's mute or its rule's, whichever ends later). */
export function mutedUntil(mutes: ReadonlyMap<string, Date>, alert: { key: string; rule: RuleKind }): Date | undefined {
  const ends = [mutes.get(alert.key), mutes.get(alert.rule)].filter((d): d is Date => d !== undefined);
  return ends.length === 0 ? undefined : new Date(Math.max(...ends.map((d) => d.getTime())));
}

/** Mute `key` from now until `until`, replacing a mute of it still in force. */
export async function mute(store: Store, key: string, until: Date, now: Date): Promise<void> {
  checkMuteKey(key);
  if (until <= now) throw new UsageError(`--until must be later than now (${now.toISOString()}), got ${until.toISOString()}`);
  await store.transaction(async () => {
    await endMutes(store, key, now);
    await store.run(`insert into _meta_alert_mutes values ($1, $2::timestamptz, $3::timestamptz, null)`, [key, now.toISOString(), until.toISOString()]);
  });
}

/** End the mute of `key` in force now; refused when there is none. */
export async function unmute(store: Store, key: string, now: Date): Promise<void> {
  checkMuteKey(key);
  const ended = await store.transaction(() => endMutes(store, key, now));
  if (ended === 0) {
    const muted = [...(await mutesAt(store, now)).keys()].sort();
    throw new UsageError(`'${key}' is not muted${muted.length > 0 ? ` (muted now: ${muted.join(', ')})` : ' (nothing is muted now)'}`);
  }
}

async function endMutes(store: Store, key: string, now: Date): Promise<number> {
  const rows = await store.all(
    `update _meta_alert_mutes set unmuted_at = $2::timestamptz
      where mute_key = $1 and muted_until > $2::timestamptz and unmuted_at is null
  returning mute_key`,
    [key, now.toISOString()],
  );
  return rows.length;
}

/** What the database knows of a mute key: whether an alert ever had it, and the accounts the database holds. */
export interface MuteKeyStanding {
  /** An alert of this key was recorded (state or event), or the key is a rule's name. */
  known: boolean;
  /** The key names an account the database holds (`*`, a rule over all accounts, counts). */
  namesAccount: boolean;
  accounts: string[];
}

/**
 * Whether `key` can match anything here: a rule's name always can; an alert key that no alert has had yet may still
 * fire later (a driver not anomalous today), but only if one of its parts is an account of this database – every
 * alert key names its account, except a waste finding's (its finding id) and the sync rule's.
 */
export async function muteKeyStanding(store: Store, key: string): Promise<MuteKeyStanding> {
  const accounts = (await store.all<{ account: string }>(`select distinct account from dim_account order by account`)).map((r) => r.account);
  if (RULES.includes(key)) return { known: true, namesAccount: true, accounts };
  const recorded = await store.one(
    `select 1 from _meta_alert_state where alert_key = $1 union all select 1 from _meta_alert_events where alert_key = $1 limit 1`,
    [key],
  );
  const parts = key.split(':').slice(1);
  const accountless = key.startsWith('waste:') || key === 'data_quality:sync';
  const namesAccount = accountless || parts.some((p) => p === '*' || accounts.includes(p));
  return { known: recorded !== undefined, namesAccount, accounts };
}
