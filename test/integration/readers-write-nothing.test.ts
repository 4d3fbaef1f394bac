// Readers need no write access (issue 18 §8): `report` and `alerts --dry-run`, run as the real CLI on a synced
// database, create, change and remove nothing in the database folder – compared by listing, inode, size and mtime of
// every entry and of the folder itself (a file made and removed again still moves the folder's mtime). Tests run as
// root, where chmod proves nothing; where the machine allows it, the same commands also run with the folder mounted
// read-only. And a reader that spills (a sort over its memory limit) spills outside the database folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/schema.ts';
import { parseConfig } from '../../src/config/load.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { runSync } from '../../src/extract/sync.ts';
import { openReader, writeSessions } from '../../src/store/shared-database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { gpuledger } from '../helpers/cli.ts';
import { KEY, smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { storingRules } from '../../src/allocation/load-rules.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));

/** Every entry of the folder and the folder itself: name, inode, size, mtime. */
function snapshot(dir: string): string[] {
  const line = (name: string, path: string) => {
    const s = statSync(path);
    return `${name} ino=${s.ino} size=${s.size} mtime=${s.mtimeMs}`;
  };
  return [line('.', dir), ...readdirSync(dir).sort().map((n) => line(n, join(dir, n)))];
}

/** Whether this machine lets a test bind-mount a folder read-only in a private mount namespace. */
function canMountReadOnly(dir: string): boolean {
  const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount --bind "${dir}" "${dir}" && mount -o remount,bind,ro "${dir}" && ! touch "${dir}/probe"`], { stdio: 'ignore' });
  return r.status === 0;
}

describe('readers write nothing in the database folder', () => {
  const synced = suiteFixture(() =>
    simulatedAccount('gpuledger-readers-', async ({ sim, tmp }) => {
      const dbDir = join(tmp.dir, 'data');
      mkdirSync(dbDir);
      const db = join(dbDir, 'ledger.duckdb');
      const input: ConfigInput = {
        ...smallSyncConfig(sim),
        allocation: { categories: { team: { rules: [{ match: { gpuType: '*H100*' }, value: 'research' }], default: 'shared' } } },
      };
      const config = writeConfig(tmp.dir, input);
      const parsed = parseConfig(input, 'test');
      // synced as the CLI does: writer copy, publishes, and the config's allocation rules stored
      await runSync({
        sessions: writeSessions({ dbPath: db, command: 'sync', prepare: storingRules(parsed.allocation) }),
        config: parsed,
        accounts: resolveAccounts(parsed, parsed.apiUrl, { GPULEDGER_TEST_KEY: KEY }),
        log: silentLogger,
        client: { initialRatePerSecond: 1000 },
      });
      return { dbDir, db, config, out: join(tmp.dir, 'out') };
    }),
  );

  const commands: [string, () => string[]][] = [
    ['report', () => ['report', '--out-dir', synced.out]],
    ['alerts --dry-run', () => ['alerts', '--dry-run']],
  ];

  it.each(commands)('%s leaves every file of the database folder and the folder itself as they were', async (_name, args) => {
    const before = snapshot(synced.dbDir);
    const r = await gpuledger(['--config', synced.config, '--db', synced.db, ...args()]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(snapshot(synced.dbDir)).toEqual(before);
  });

  it('report and alerts --dry-run run with the database folder mounted read-only', async (context) => {
    if (!canMountReadOnly(synced.dbDir)) return context.skip(); // no mount namespaces here: the listing test above stands
    for (const [, args] of commands) {
      const cli = [BIN, '--config', synced.config, '--db', synced.db, ...args()].map((a) => `"${a}"`).join(' ');
      const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount --bind "${synced.dbDir}" "${synced.dbDir}" && mount -o remount,bind,ro "${synced.dbDir}" && exec "${process.execPath}" ${cli}`], {
        encoding: 'utf8',
        env: { ...process.env, GPULEDGER_CONFIG: '' },
      });
      const problems = r.stderr.split('\n').filter((l) => l && !/ info /.test(l));
      expect({ command: args()[0], status: r.status, problems }).toEqual({ command: args()[0], status: 0, problems: [] });
    }
  });

  it('a reader that spills past its memory limit spills outside the database folder', async () => {
    const before = snapshot(synced.dbDir);
    const store = await openReader(synced.db);
    try {
      const dir = (await store.one<{ d: string }>(`select current_setting('temp_directory') as d`))!.d;
      expect(dir.startsWith(synced.dbDir)).toBe(false);
      await store.run(`set memory_limit = '32MB'`);
      await store.run('set threads = 1');
      await store.run(`select count(*) from (select i, md5(i::varchar) s from range(2000000) t(i) order by s)`);
    } finally {
      await store.close();
    }
    expect(snapshot(synced.dbDir)).toEqual(before);
  });

  it('report and query with allocation rules the database does not hold answer with them and write nothing', async () => {
    mkdirSync(join(synced.tmp.dir, 'changed'));
    const changed = writeConfig(join(synced.tmp.dir, 'changed'), {
      ...smallSyncConfig(synced.sim),
      allocation: { categories: { team: { rules: [{ match: { gpuType: '*A100*' }, value: 'training' }], default: 'shared' } } },
    });
    const before = snapshot(synced.dbDir);
    const report = await gpuledger(['--config', changed, '--db', synced.db, 'report', '--out-dir', synced.out]);
    expect(report.code).toBe(0);
    const values = await gpuledger(['--config', changed, '--db', synced.db, 'query', '--format', 'csv', `select distinct value from cost_allocated order by 1`]);
    expect(values.stdout).toMatch(/shared/);
    expect(snapshot(synced.dbDir)).toEqual(before);
    // the file still holds the rules its last writer stored (none here)
    const stored = await gpuledger(['--db', synced.db, 'query', '--format', 'csv', `select count(*) as n from _meta_allocation_rules`]);
    expect(stored.stdout).toBe('n\r\n0\r\n');
  });
});
