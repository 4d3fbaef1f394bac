// Muting on purpose, as a user does it: `gpuledger alerts mute <key> --until T` holds one alert back – the dry run
// and serve's alerts page say "muted until …", a run delivers the others and not it –, `alerts unmute` lets the next
// run deliver it, a muted rule holds back all its alerts until the mute ends, and a bad key or time is one line, exit 2.
// The simulator over real HTTP, a real DuckDB file, the real CLI, a real serve.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { startServe } from '../../src/serve/index.ts';
import { withReader, writeSessions } from '../../src/store/shared-database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { gpuledger } from '../helpers/cli.ts';
import { writeConfig } from '../helpers/sync.ts';
import { Collect, dollarBudgetsOnly, syncedDb, type SyncedDb } from '../helpers/alert-delivery.ts';

const HOUR = 3_600_000;

describe('gpuledger alerts mute and unmute', () => {
  let db: SyncedDb;
  let configPath: string;
  let input: ConfigInput;
  const delivered = () => {
    const file = join(db.tmp.dir, 'alerts.ndjson');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { title: string; alert_key: string }).alert_key);
  };
  const cli = (...args: string[]) => gpuledger(['--config', configPath, '--db', db.tmp.db, 'alerts', ...args]);
  const budgets = (names: string[]): ConfigInput => ({
    ...db.base,
    alerts: {
      ...dollarBudgetsOnly(names),
      channels: [{ type: 'file' }],
    },
  });

  beforeAll(async () => {
    db = await syncedDb('gpuledger-mute-');
    input = budgets(['held', 'free']);
    configPath = writeConfig(db.tmp.dir, input);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('holds back a muted alert – not delivered, shown as muted – and delivers it after unmute', async () => {
    const dry = await cli('--dry-run');
    expect(dry.code).toBe(0);
    const key = /^ +key (budget:held:\S+)$/m.exec(dry.stdout)![1]!;
    const until = new Date(Date.now() + 24 * HOUR).toISOString();

    const muted = await cli('mute', key, '--until', until);
    expect(muted.stderr).toContain(`muted ${key} until ${until}`);
    expect(muted.code).toBe(0);

    const dryMuted = await cli('--dry-run');
    expect(dryMuted.stdout).toMatch(new RegExp(`^muted until ${until}: ALERT +critical +\\[SIMULATED\\] Budget held: `, 'm'));
    expect(dryMuted.stdout).toMatch(/^would send: ALERT +critical +\[SIMULATED\] Budget free: /m);
    expect(dryMuted.stdout).not.toMatch(/^would send: .*Budget held/m);

    const run = await cli();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/1 muted/);
    expect(delivered()).toEqual([expect.stringMatching(/^budget:free:/)]);

    // serve's alerts page names what is muted and until when
    // warmPages off: this test opens its few pages itself; computing the nine default pages ahead (~2 CPU-s) is work nobody reads
    const serve = await startServe({ dbPath: db.tmp.db, config: parseConfig(input, 'test'), host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
    try {
      const page = await (await fetch(`${serve.url}/alerts`)).text();
      const section = /<section id="s-muted">([\s\S]*?)<\/section>/.exec(page)![1]!;
      expect(section).toContain(key);
      expect(section).toContain(until.slice(0, 10));
      expect(page).not.toContain('Nothing is muted.');
    } finally {
      await serve.close();
    }

    const unmuted = await cli('unmute', key);
    expect(unmuted.code).toBe(0);
    const after = await cli();
    expect(after.code).toBe(0);
    expect(delivered()).toEqual([expect.stringMatching(/^budget:free:/), key]);
    const again = await cli('unmute', key);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(new RegExp(`'${key.replaceAll('*', '\\*')}' is not muted`));
  }, 120_000);

  it('mutes a whole rule until the moment given, and delivers once the mute has ended', async () => {
    const until = new Date(Date.now() + 2 * HOUR);
    const muted = await cli('mute', 'budget', '--until', until.toISOString());
    expect(muted.code).toBe(0);
    // a new budget alert, evaluated an hour before and an hour after the mute ends
    const config = parseConfig(budgets(['held', 'free', 'later']), 'test');
    const sessions = writeSessions({ dbPath: db.tmp.db, command: 'test' });
    const at = (now: Date) => runAlerts({ sessions, dbPath: db.tmp.db, config, outDir: db.tmp.dir, now, stdout: new Collect() });
    const during = await at(new Date(until.getTime() - HOUR));
    expect(during.events).toEqual([]);
    expect(during.muted.map((m) => [m.event.key, m.until.toISOString()])).toEqual([[expect.stringMatching(/^budget:later:/), until.toISOString()]]);
    expect(delivered().filter((k) => k.startsWith('budget:later:'))).toEqual([]);
    const ended = await at(new Date(until.getTime() + HOUR));
    expect(ended.muted).toEqual([]);
    expect(ended.events.map((e) => `${e.event} ${e.key}`)).toEqual([expect.stringMatching(/^fired budget:later:/)]);
    expect(delivered().filter((k) => k.startsWith('budget:later:'))).toHaveLength(1);
  }, 120_000);

  it('mutes for a span from now with --for: the end is now plus the span', async () => {
    const before = Date.now();
    const muted = await cli('mute', 'waste', '--for', '12h');
    expect(muted.code, muted.stderr).toBe(0);
    const until = Date.parse(/^muted waste until (\S+):/m.exec(muted.stderr)![1]!);
    expect(until).toBeGreaterThanOrEqual(before + 12 * HOUR);
    expect(until).toBeLessThanOrEqual(Date.now() + 12 * HOUR);
    expect((await cli('unmute', 'waste')).code).toBe(0);
  }, 120_000);

  it('refuses a bad key or a bad time in one line, exit 2, and records nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['mute', 'budgett:x', '--until', '2099-01-01T00:00:00Z'], /'budgett:x' is neither a rule nor an alert key: pass a rule \(budget, anomaly/],
      [['mute', 'budget', '--until', 'tomorrow'], /--until must be an RFC 3339 date-time/],
      [['mute', 'budget', '--until', '2020-01-01T00:00:00Z'], /--until must be later than now/],
      [['mute', 'budget'], /alerts mute needs --for DURATION \(e\.g\. 7d\) or --until RFC3339/],
      [['mute', 'budget', '--for', '1 week'], /--for must be a whole number of minutes, hours or days such as 90m, 12h or 7d, got '1 week'/],
      [['mute', 'budget', '--for', '0d'], /--for must be a whole number/],
      [['mute', 'budget', '--for', '7d', '--until', '2099-01-01T00:00:00Z'], /takes --for or --until, not both/],
      [['unmute', 'not a key'], /'not a key' is neither a rule nor an alert key/],
    ];
    const mutes = () => withReader(db.tmp.db, async (s) => (await s.one<{ n: number }>('select count(*)::integer as n from _meta_alert_mutes'))!.n);
    const before = await mutes();
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    expect(await mutes()).toBe(before);
  }, 120_000);
});
