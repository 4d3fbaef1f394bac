import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, withStore } from '../../src/store/database.ts';
import { lockPathFor } from '../../src/store/lock.ts';
import { listMigrations } from '../../src/store/migrate.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { copyMigratedStore } from '../helpers/view-store.ts';

const tmpDb = () => join(tempDir('gpuledger-store-').dir, 'test.duckdb');
/** A new file as openStore makes it, copied from the worker's template: for tests whose subject is not the migration. */
const migratedDb = async () => {
  const path = tmpDb();
  await copyMigratedStore(path);
  return path;
};

describe('store', () => {
  it('creates the schema, records its version and serves the public billing views', async () => {
    await withStore({ path: tmpDb() }, async (store) => {
      const v = await store.one<{ v: number }>('select max(version) as v from _meta_schema_version');
      expect(v?.v).toBe(listMigrations().at(-1)!.version);
      const views = await store.all<{ name: string }>(
        "select view_name as name from duckdb_views() where not internal and view_name like 'billing_%' order by 1",
      );
      expect(views.map((r) => r.name)).toEqual([
        'billing_aggregate',
        'billing_clusters',
        'billing_endpoints',
        'billing_network_volumes',
        'billing_pods',
        'billing_serverless',
      ]);
      const tz = await store.one<{ tz: string }>("select current_setting('TimeZone') as tz");
      expect(tz?.tz).toBe('UTC');
    });
  });

  it('reads DECIMAL sums back exactly as strings', async () => {
    await withStore({ path: await migratedDb() }, async (store) => {
      const r = await store.one<{ s: string }>('select sum(0.1::decimal(18,6)) as s from range(1000)');
      expect(r?.s).toBe('100.000000');
    });
  });

  it('rolls a failed transaction back completely', async () => {
    await withStore({ path: await migratedDb() }, async (store) => {
      await expect(
        store.transaction(async () => {
          await store.run(
            "insert into raw_billing_endpoints values ('a','day','2026-01-01','2026-01-02',1.5,'l1',now())",
          );
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect((await store.one<{ n: string }>('select count(*) as n from raw_billing_endpoints'))?.n).toBe('0');
    });
  });

  it('reopens an existing file without re-running migrations', async () => {
    const path = tmpDb();
    await (await openStore({ path })).close();
    await withStore({ path }, async (store) => {
      const n = await store.one<{ n: string }>('select count(*) as n from _meta_schema_version');
      expect(Number(n?.n)).toBe(listMigrations().length);
    });
  });

  it('refuses a second writer with who holds the file, and takes over a stale lock', async () => {
    const path = await migratedDb();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      writeFileSync(lockPathFor(path), JSON.stringify({ pid: child.pid, command: 'sync', startedAt: '2026-11-22T06:00:00Z' }));
      await expect(openStore({ path })).rejects.toThrow(
        new RegExp(`another gpuledger process \\(pid ${child.pid}, sync since 2026-11-22T06:00:00Z\\) is writing .*test\\.duckdb; try again later`),
      );
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    const store = await openStore({ path }); // the holder is dead: stale lock taken over
    await store.close();
  });

  it('opens read-only next to nothing else and refuses writes there', async () => {
    const path = await migratedDb();
    await (await openStore({ path })).close();
    const ro = await openStore({ path, readOnly: true });
    try {
      await expect(ro.run('create table x (a int)')).rejects.toThrow(/read-only/i);
    } finally {
      await ro.close();
    }
  });
});
