// Every view's rows on one database, before and after a change to sql/ (issue 41: "every view's rows unchanged").
//   node --import tsx scripts/view-rows.ts fixture OUT.duckdb            a small simulator account, synced (the test
//                                                                         fixture's sync: test/helpers/synced-fixture.ts)
//   node --import tsx scripts/view-rows.ts dump ROOT DB OUT.duckdb       ROOT's code and sql/ applied to a copy of DB,
//                                                                         the fct_* tables refreshed, every view copied
//   node --import tsx scripts/view-rows.ts compare A.duckdb B.duckdb [OLD=NEW…]
//                                                                         `except all` both ways for every view in both
//                                                                         (OLD in A against NEW in B: a view moved)
// Run `dump` once with the base tree's ROOT (a `git worktree` of main) and once with this one's, on the same DB: the
// code that applies the views is each tree's own, so a base whose layout this tree no longer reads still applies.
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.sql') ? [join(dir, e.name)] : [],
  );
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
    // the views ROOT's files define: a view the base had and ROOT dropped stays in the file, stale, and is no answer
    const defined = new Set(filesUnder(join(resolve(root), 'sql/views')).map((f) => basename(f, '.sql')));
    const views = (await store.all<{ name: string }>(
      "select view_name as name from duckdb_views() where schema_name = 'main' and not internal order by 1",
    )).filter((v) => defined.has(v.name));
    await store.run(`attach '${out.replace(/'/g, "''")}' as dumped`);
    for (const { name } of views) await store.run(`create table dumped.${quote(name)} as select * from main.${quote(name)}`);
    await store.run('detach dumped');
    process.stdout.write(`${views.length} views of ${root} copied to ${out}\n`);
  } finally {
    await store.close();
    for (const f of [copy, `${copy}.wal`]) rmSync(f, { force: true });
  }
}

async function compare(a: string, b: string, moved: ReadonlyMap<string, string>): Promise<number> {
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  await con.run(`attach '${a}' as a (read_only)`);
  await con.run(`attach '${b}' as b (read_only)`);
  const tables = async (db: string) =>
    new Set((await con.runAndReadAll(`select table_name from duckdb_tables() where database_name = '${db}'`)).getRows().map((r) => String(r[0])));
  const [inA, inB] = [await tables('a'), await tables('b')];
  const inBAs = (n: string) => moved.get(n) ?? n;
  let differing = 0;
  const movedTo = new Set(moved.values());
  for (const name of [...inA].filter((n) => !inB.has(inBAs(n))).sort()) process.stdout.write(`only in A: ${name}\n`);
  for (const name of [...inB].filter((n) => !inA.has(n) && !movedTo.has(n)).sort()) process.stdout.write(`only in B: ${name}\n`);
  const both = [...inA].filter((n) => inB.has(inBAs(n))).sort();
  // DOUBLE columns (forecast ratios, shares) come out of parallel sums in any order, so two runs of the same SQL differ
  // in the last bits (0.18707048147729 against 0.18707048147729022): those compare at 12 significant digits; every
  // DECIMAL, integer, text and time compares exactly
  const doubles = async (db: string, table: string) =>
    (await con.runAndReadAll(`select column_name from duckdb_columns() where database_name = '${db}' and table_name = '${table.replace(/'/g, "''")}' and data_type in ('DOUBLE', 'FLOAT') order by column_index`)).getRows().map((r) => String(r[0]));
  const comparable = (relation: string, columns: string[]) =>
    columns.length === 0 ? `select * from ${relation}` : `select * replace (${columns.map((c) => `printf('%.12g', ${quote(c)}) as ${quote(c)}`).join(', ')}) from ${relation}`;
  for (const name of both) {
    const q = quote(name);
    const qb = quote(inBAs(name));
    const label = inBAs(name) === name ? name : `${name} → ${inBAs(name)}`;
    const count = async (sql: string) => Number((await con.runAndReadAll(sql)).getRows()[0]![0]);
    try {
      const rows = await count(`select count(*) from a.${q}`);
      const [da, db] = [await doubles('a', name), await doubles('b', inBAs(name))];
      const aOnly = await count(`select count(*) from (${comparable(`a.${q}`, da)} except all ${comparable(`b.${qb}`, db)})`);
      const bOnly = await count(`select count(*) from (${comparable(`b.${qb}`, db)} except all ${comparable(`a.${q}`, da)})`);
      const cols = async (db: string, table: string) =>
        (await con.runAndReadAll(`select string_agg(column_name || ' ' || data_type, ', ' order by column_index) from duckdb_columns() where database_name = '${db}' and table_name = '${table.replace(/'/g, "''")}'`)).getRows()[0]![0];
      const sameColumns = (await cols('a', name)) === (await cols('b', inBAs(name)));
      const same = aOnly === 0 && bOnly === 0 && sameColumns;
      if (!same) differing++;
      process.stdout.write(`${same ? 'same' : 'DIFFERS'}\t${label}\t${rows} rows\tA−B ${aOnly}\tB−A ${bOnly}${sameColumns ? '' : '\tcolumns differ'}\n`);
    } catch (e) {
      differing++;
      process.stdout.write(`DIFFERS\t${label}\t${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    }
  }
  process.stdout.write(`${both.length} views compared, ${differing} differ\n`);
  con.closeSync();
  return differing;
}

if (mode === 'fixture' && args[0]) await fixture(args[0]);
else if (mode === 'dump' && args.length === 3) await dump(args[0]!, args[1]!, args[2]!);
else if (mode === 'compare' && args.length >= 2) {
  const moved = new Map(args.slice(2).map((pair) => pair.split('=') as [string, string]));
  process.exitCode = (await compare(args[0]!, args[1]!, moved)) === 0 ? 0 : 1;
}
else {
  process.stderr.write('usage: view-rows.ts fixture OUT | dump ROOT DB OUT | compare A B [OLD=NEW…]\n');
  process.exitCode = 2;
}
