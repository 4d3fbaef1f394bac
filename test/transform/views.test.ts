import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/database.ts';
import { SQL_DIR } from '../../src/transform/sql-files.ts';
import { applyViews, listViewFiles, orderViews, viewReferences } from '../../src/transform/views.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// A copy of the repository's sql/ folder in a temp dir, so a view can be broken without touching the real files.
function sqlCopy(): string {
  const dir = join(tempDir('gpuledger-sql-').dir, 'sql');
  cpSync(SQL_DIR, dir, { recursive: true });
  return dir;
}

function edit(sqlDir: string, file: string, change: (sql: string) => string): void {
  const path = join(sqlDir, 'views', file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

describe('applying views in dependency order', () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  const openBare = async () =>
    (store = await openStore({ path: join(tempDir('gpuledger-views-').dir, 'v.duckdb'), applyViews: false }));

  it('names the broken int_ view, not a view that reads it', async () => {
    const sqlDir = sqlCopy();
    edit(sqlDir, 'intermediate/int_cost_records.sql', (sql) => sql.replace('select * from billing_pods', 'selct * from billing_pods'));
    const s = await openBare();
    await expect(applyViews(s, sqlDir)).rejects.toThrow(/^view intermediate\/int_cost_records\.sql failed: Parser Error: syntax error at or near "selct"/);
  });

  it('leaves the views as they were when one fails to bind: no view of the same apply stays', async () => {
    const sqlDir = sqlCopy();
    // parses (the layer check passes), fails only when DuckDB binds it – after the views it reads were created
    edit(sqlDir, 'reports/rpt_by_category.sql', (sql) => sql.replace(/select \* from final;\s*$/, 'select no_such_column from final;\n'));
    const s = await openBare();
    await expect(applyViews(s, sqlDir)).rejects.toThrow(/^view reports\/rpt_by_category\.sql failed: Binder Error: .*no_such_column/);
    expect(await s.all(`select view_name from duckdb_views() where schema_name = 'main' and not internal`)).toEqual([]);
    expect(await s.all('select * from _meta_applied_views')).toEqual([]);
  });

  it('refuses views that read each other in a cycle, naming the files', async () => {
    const sqlDir = sqlCopy();
    edit(sqlDir, 'intermediate/int_billing_records.sql', (sql) => sql.replace('select * from billing_clusters', 'select * from billing_clusters, cost'));
    await expect(applyViews(await openBare(), sqlDir)).rejects.toThrow(
      // cost reads int_billing_records through the macros int_cost_attributed_in and int_cost_days_in (sql/macros)
      /^views read each other in a cycle: (macros\/int_\w+\.sql → )*intermediate\/int_billing_records\.sql → marts\/cost\.sql → macros\/int_cost_attributed_in\.sql[ ;]/,
    );
  });

  it('puts every view after the views it reads and applies all of them', async () => {
    const files = listViewFiles();
    const names = new Set(files.map((v) => v.name));
    const ordered = orderViews(files);
    expect(ordered.map((v) => v.name).sort()).toEqual([...names].sort());
    const position = new Map(ordered.map((v, i) => [v.name, i]));
    for (const v of ordered) {
      for (const ref of viewReferences(v, names)) expect(position.get(ref)!, `${v.name} reads ${ref}`).toBeLessThan(position.get(v.name)!);
    }
    const s = await openBare();
    await applyViews(s);
    const applied = await s.all<{ n: string }>(
      `select distinct view_name as n from duckdb_views() where not internal
       union select function_name from duckdb_functions() where function_type in ('table_macro', 'macro') and not internal`,
    );
    expect(applied.map((r) => r.n).sort()).toEqual([...names].sort());
  });

  it('reads references from code only: names in comments and string literals do not count', () => {
    const [v] = listViewFiles().filter((f) => f.name === 'cost');
    const fake = { ...v!, sql: "-- reads cost_daily\ncreate view x as select 'rpt_waste' as s from int_cost_records" };
    expect(viewReferences(fake, new Set(['cost_daily', 'rpt_waste', 'int_cost_records']))).toEqual(['int_cost_records']);
  });

  it('lists the macro files, then the view files by layer and name, with their header comments', () => {
    const files = listViewFiles();
    const layers = files.map((f) => f.layer);
    const order = ['macros', 'staging', 'intermediate', 'marts', 'reports'];
    expect(new Set(layers)).toEqual(new Set(order));
    expect(layers).toEqual([...layers].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    // sql/macros holds every macro, sql/views none
    for (const f of files) expect(/^\s*create\s+or\s+replace\s+macro\b/im.test(f.sql), f.path).toBe(f.layer === 'macros');
    expect(files.find((f) => f.name === 'cost')?.description).toMatch(/^One row per billing record/);
  });
});

describe('applying views only when a file changed', () => {
  it('leaves the views alone on the next writing open when no view or macro file changed', async () => {
    const path = join(tempDir('gpuledger-views-again-').dir, 'v.duckdb');
    const first = await openStore({ path });
    const applied = await first.one<{ at: string }>('select applied_at::varchar as at from _meta_applied_views');
    await first.close();
    const second = await openStore({ path });
    try {
      expect(await second.one<{ at: string }>('select applied_at::varchar as at from _meta_applied_views')).toEqual(applied);
    } finally {
      await second.close();
    }
  });
});

describe('what DuckDB\'s catalog says about the views', () => {
  it('comments every view with one line of its header and the common columns of the public ones; internal views say so', async () => {
    const path = join(tempDir('gpuledger-comments-').dir, 'c.duckdb');
    const s = await openStore({ path, command: 'test' });
    try {
      const views = await s.all<{ view_name: string; comment: string | null }>(
        `select view_name, comment from duckdb_views() where schema_name = 'main' and not internal order by all`,
      );
      expect(views.length).toBeGreaterThan(50);
      for (const v of views) {
        expect(v.comment, v.view_name).toBeTruthy();
        expect(v.comment!.length, v.view_name).toBeLessThanOrEqual(190);
        expect(v.comment, v.view_name).not.toMatch(/\n|\.md\b|\.sql\b|§/);
        expect(v.comment!.startsWith('Internal, may change in any release: '), v.view_name).toBe(/^(stg|int)_/.test(v.view_name));
      }
      expect(views.find((v) => v.view_name === 'cost_daily')?.comment).toMatch(/^One row per account, family, UTC day/);
      const columns = await s.all<{ table_name: string; column_name: string; comment: string | null }>(
        `select table_name, column_name, comment from duckdb_columns() where table_name in ('cost_daily', 'dim_gpu_type') and column_name in ('amount', 'gpu_type_id', 'account') order by all`,
      );
      expect(columns.length).toBe(5);
      for (const c of columns) expect(c.comment, `${c.table_name}.${c.column_name}`).toBeTruthy();
      expect(columns.find((c) => c.table_name === 'cost_daily' && c.column_name === 'amount')?.comment).toMatch(/exact DECIMAL/);
    } finally {
      await s.close();
    }
  });
});
