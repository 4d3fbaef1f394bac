// The SQL that restates the cost model is generated from it (src/model/generated-sql.ts) and checked in: these tests
// regenerate it and compare, name the source and field of a wrong mapping, and add an amount field in a copy of the
// repository to show that one declaration and one migration carry it into `cost_daily`.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedSqlFiles } from '../../src/model/generated-sql.ts';
import { describeDrift } from '../../src/model/sql-drift.ts';
import { SQL_DIR } from '../../src/transform/sql-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => {
  try {
    return readFileSync(join(SQL_DIR, path), 'utf8');
  } catch {
    return undefined;
  }
};

describe('SQL generated from the cost model', () => {
  it('is checked in exactly as src/model/ generates it', () => {
    const drift = generatedSqlFiles().flatMap((f) => describeDrift(f, read(f.path)) ?? []);
    expect(drift).toEqual([]);
  });

  it('names the billing source and field whose mapping a hand edit got wrong', () => {
    const file = generatedSqlFiles().find((f) => f.path.endsWith('int_cost_records.sql'))!;
    const edited = file.text.replace("{'component': 'gpu', 'amount': gpu_amount}, -- serverless.gpuAmount", "{'component': 'cpu', 'amount': gpu_amount}, -- serverless.gpuAmount");
    expect(edited).not.toBe(file.text);
    expect(describeDrift(file, edited)).toMatch(/int_cost_records\.sql does not say what the declaration of the serverless billing source says of gpuAmount \(serverless\/gpu\)/);
  });

  it('carries a new amount field from one declaration and one migration into cost_daily', () => {
    // a copy of the code and SQL, so that the declaration can change without touching the repository
    const copy = tempDir('gpuledger-new-field-').dir;
    try {
      for (const dir of ['src', 'sql', 'bin']) cpSync(join(REPO, dir), join(copy, dir), { recursive: true });
      for (const file of ['package.json', 'tsconfig.json']) cpSync(join(REPO, file), join(copy, file));
      symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
      // 1. the declaration: pods bill a networking component too
      const pods = join(copy, 'src/model/billing-sources/pods.ts');
      writeFileSync(pods, readFileSync(pods, 'utf8').replace("    diskAmount: ['pod', 'disk'],", "    diskAmount: ['pod', 'disk'],\n    networkingAmount: ['pod', 'networking'],"));
      // 2. the migration: the raw table gets the column where the declaration puts it (before the load columns)
      writeFileSync(
        join(copy, 'sql/schema/999_pod_networking.sql'),
        `create table raw_billing_pods_next as
           select account, bucket_size, start_time, end_time, pod_id, total_amount, gpu_amount, cpu_amount, disk_amount,
                  0::decimal(18,6) as networking_amount, _load_id, _extracted_at
           from raw_billing_pods;
         drop table raw_billing_pods;
         alter table raw_billing_pods_next rename to raw_billing_pods;`,
      );
      const generated = spawnSync(process.execPath, ['--import', 'tsx', 'src/model/generated-sql.ts'], { cwd: copy, encoding: 'utf8' });
      expect(generated.status, generated.stderr).toBe(0);
      // a page of the new shape through the real loader, then the refresh a writing session runs before it publishes
      const script = join(copy, 'load-one-page.mts');
      writeFileSync(
        script,
        `import { writeFileSync } from 'node:fs';
         import { openStore } from './src/store/database.ts';
         import { refreshMaterialized } from './src/transform/materialize.ts';
         import { loadBillingPage } from './src/extract/load-billing.ts';
         import { BILLING_SOURCE_DEFS } from './src/model/index.ts';
         const file = '${join(copy, 'page.json')}';
         writeFileSync(file, JSON.stringify([{ podId: 'p1', startTime: '2026-10-01T00:00:00Z', endTime: '2026-10-02T00:00:00Z',
           totalAmount: 3.5, gpuAmount: 2, cpuAmount: 0.5, diskAmount: 0.25, networkingAmount: 0.75 }]));
         const store = await openStore({ path: '${join(copy, 'db.duckdb')}', command: 'test' });
         const window = { startTime: new Date('2026-10-01T00:00:00Z'), endTime: new Date('2026-10-02T00:00:00Z'), bucketSize: 'day' };
         await loadBillingPage(
           { store, runId: 'r', account: 'acme', def: BILLING_SOURCE_DEFS.pods, bucketSize: 'day', serverNow: new Date('2026-11-01T00:00:00Z'), completeThrough: new Date('2026-10-30T00:00:00Z'), lastOfRange: true },
           { what: 'pods page', query: window, stated: { totals: {} }, bytes: 1, file },
           Object.values(BILLING_SOURCE_DEFS),
         );
         await refreshMaterialized(store);
         const rows = await store.all("select component, amount::varchar as amount from cost_daily order by component");
         const wide = await store.one("select networking_amount::varchar as n from billing_pods");
         process.stdout.write(JSON.stringify({ rows, wide }));
         await store.close();`,
      );
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: copy, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        rows: [
          { component: 'cpu', amount: '0.500000' },
          { component: 'disk', amount: '0.250000' },
          { component: 'gpu', amount: '2.000000' },
          { component: 'networking', amount: '0.750000' },
        ],
        wide: { n: '0.750000' },
      });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
