// Every view's rows on one database, before and after a change to sql/ (issue 41: "every view's rows unchanged").
//   node --import tsx scripts/view-rows.ts fixture OUT.duckdb            a small simulator account, synced (the test
//                                                                         fixture's sync: test/helpers/synced-fixture.ts)
//   node --import tsx scripts/view-rows.ts dump ROOT DB OUT.duckdb       ROOT's code and sql/ applied to a copy of DB,
//                                                                         the fct_* tables refreshed, every view copied
//   node --import tsx scripts/view-rows.ts compare A.duckdb B.duckdb     `except all` both ways for every view in both
// Run `dump` once with the base tree's ROOT (a `git worktree` of main) and once with this one's, on the same DB: the
// code that applies the views is each tree's own, so a base whose layout this tree no longer reads still applies.
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, ...args] = process.argv.slice(2);

async function fixture(out: string): Promise<void> {
  const { fastSimulator, smallSyncConfig, syncOnce } = await import('../test/helpers/sync.ts');
  const { openStore } = await import('../src/store/database.ts');
  const { loadConfigFile } = await import('../src/config/load.ts');
  const { loadAllocationRules } = await import('../src/allocation/load-rules.ts');
  const { loadBudgets } = await import('../src/alert/load-budgets.ts');
  const { writeMetricRows } = await import('../src/metrics/import-metrics.ts');
  const { refreshMaterialized } = await import('../src/transform/materialize.ts');
  // the example config's allocation rules and budgets and the example metrics, so that the allocation, budget and
  // unit-cost views have rows to compare too
  const example = loadConfigFile(fileURLToPath(new URL('../config/gpuledger.example.json', import.meta.url)));
  const csv = readFileSync(new URL('../examples/images.csv', import.meta.url), 'utf8').trim().split('\n').slice(1);
  const metrics = csv.map((line, i) => {
    const [day, metric, value, scope] = line.split(',');
    return { day: day!, metric: metric!, value: value!, scope: scope ?? '', account: '', line: i + 2 };
  });
  const sim = await fastSimulator();
  try {
    const store = await openStore({ path: out, command: 'view-rows' });
    try {
      await syncOnce(store, smallSyncConfig(sim));
      await loadAllocationRules(store, example.allocation);
      await loadBudgets(store, example.alerts.budgets);
      await writeMetricRows(store, 'sim', 'examples/images.csv', metrics);
      await refreshMaterialized(store);
    } finally {
      await store.close();
    }
  } finally {
    await sim.close();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function dump(root: string, db: string, out: string): Promise<void> {
  const from = (p: string) => import(pathToFileURL(join(resolve(root), p)).href);
  const { openStore } = await from('src/store/database.ts');
  const { refreshMaterialized } = await from('src/transform/materialize.ts');
  const copy = `${out}.source.duckdb`;
  for (const f of [out, copy, `${copy}.wal`]) rmSync(f, { force: true });
  copyFileSync(db, copy);
  if (existsSync(`${db}.wal`)) copyFileSync(`${db}.wal`, `${copy}.wal`);
  // opening applies ROOT's views (their hash differs from the file's); the refresh recomputes the fct_* tables
  const store = await openStore({ path: copy, command: 'view-rows' });
  try {
    await refreshMaterialized(store);
    const views = await store.all<{ name: string }>(
      "select view_name as name from duckdb_views() where schema_name = 'main' and not internal order by 1",
    );
    await store.run(`attach '${out.replace(/'/g, "''")}' as dumped`);
    for (const { name } of views) await store.run(`create table dumped.${quote(name)} as select * from main.${quote(name)}`);
    await store.run('detach dumped');
    process.stdout.write(`${views.length} views of ${root} copied to ${out}\n`);
  } finally {
    await store.close();
    for (const f of [copy, `${copy}.wal`]) rmSync(f, { force: true });
  }
}

async function compare(a: string, b: string): Promise<number> {
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  await con.run(`attach '${a}' as a (read_only)`);
  await con.run(`attach '${b}' as b (read_only)`);
  const tables = async (db: string) =>
    new Set((await con.runAndReadAll(`select table_name from duckdb_tables() where database_name = '${db}'`)).getRows().map((r) => String(r[0])));
  const [inA, inB] = [await tables('a'), await tables('b')];
  let differing = 0;
  for (const name of [...inA].filter((n) => !inB.has(n)).sort()) process.stdout.write(`only in A: ${name}\n`);
  for (const name of [...inB].filter((n) => !inA.has(n)).sort()) process.stdout.write(`only in B: ${name}\n`);
  const both = [...inA].filter((n) => inB.has(n)).sort();
  for (const name of both) {
    const q = quote(name);
    const count = async (sql: string) => Number((await con.runAndReadAll(sql)).getRows()[0]![0]);
    try {
      const rows = await count(`select count(*) from a.${q}`);
      const aOnly = await count(`select count(*) from (select * from a.${q} except all select * from b.${q})`);
      const bOnly = await count(`select count(*) from (select * from b.${q} except all select * from a.${q})`);
      const cols = async (db: string) =>
        (await con.runAndReadAll(`select string_agg(column_name || ' ' || data_type, ', ' order by column_index) from duckdb_columns() where database_name = '${db}' and table_name = '${name.replace(/'/g, "''")}'`)).getRows()[0]![0];
      const sameColumns = (await cols('a')) === (await cols('b'));
      const same = aOnly === 0 && bOnly === 0 && sameColumns;
      if (!same) differing++;
      process.stdout.write(`${same ? 'same' : 'DIFFERS'}\t${name}\t${rows} rows\tA−B ${aOnly}\tB−A ${bOnly}${sameColumns ? '' : '\tcolumns differ'}\n`);
    } catch (e) {
      differing++;
      process.stdout.write(`DIFFERS\t${name}\t${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    }
  }
  process.stdout.write(`${both.length} views compared, ${differing} differ\n`);
  con.closeSync();
  return differing;
}

if (mode === 'fixture' && args[0]) await fixture(args[0]);
else if (mode === 'dump' && args.length === 3) await dump(args[0]!, args[1]!, args[2]!);
else if (mode === 'compare' && args.length === 2) process.exitCode = (await compare(args[0]!, args[1]!)) === 0 ? 0 : 1;
else {
  process.stderr.write('usage: view-rows.ts fixture OUT | dump ROOT DB OUT | compare A B\n');
  process.exitCode = 2;
}
