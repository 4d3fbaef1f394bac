// Every public view of the "before" database (old code's views) against the "after" one (the same data opened by the
// new code: migrated, views applied, materialised tables refreshed), row for row on their common columns, at several
// as-of moments – the check a restructuring of the SQL must pass (issue 19). Usage:
//   node --import tsx scripts/compare-public-views.ts before.duckdb after.duckdb [as-of …]
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
const [beforePath, afterPath] = process.argv.slice(2) as [string, string];
const open = async (p: string) => { const i = await DuckDBInstance.create(p, { access_mode: 'READ_ONLY' }); const c = await i.connect(); await c.run("set TimeZone='UTC'"); return c; };
const before = await open(beforePath);
const after = await open(afterPath);
const rows = async (c: DuckDBConnection, sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
const views = (await rows(before, "select view_name from duckdb_views() where not internal and schema_name = 'main' and view_name not like 'int\\_%' escape '\\' order by 1")).map((r) => String(r.view_name));
const afterViews = new Set((await rows(after, "select view_name from duckdb_views() where not internal and schema_name = 'main'")).map((r) => String(r.view_name)));
const given = process.argv.slice(4);
const moments: (string | null)[] = [null, ...given];
let sets = 0, total = 0; const problems: string[] = [];
for (const moment of moments) {
  for (const c of [before, after]) await c.run(moment ? `set variable gpuledger_as_of = '${moment}'` : 'reset variable gpuledger_as_of');
  for (const v of views) {
    if (!afterViews.has(v)) { problems.push(`${v}: missing after`); continue; }
    const typesB = new Map((await rows(before, `select column_name, column_type from (describe ${v})`)).map((r) => [String(r.column_name), String(r.column_type)]));
    const typesA = new Map((await rows(after, `select column_name, column_type from (describe ${v})`)).map((r) => [String(r.column_name), String(r.column_type)]));
    const colsB = [...typesB.keys()];
    const common = colsB.filter((c) => typesA.has(c));
    const dropped = colsB.filter((c) => !typesA.has(c));
    if (dropped.length) problems.push(`${v}: columns gone after: ${dropped.join(', ')}`);
    const retyped = common.filter((c) => typesA.get(c) !== typesB.get(c)).map((c) => `${c} ${typesB.get(c)} → ${typesA.get(c)}`);
    if (retyped.length && moment === null) problems.push(`${v}: column types changed: ${retyped.join(', ')}`);
    const q = `select ${common.map((c) => `"${c}"`).join(', ')} from ${v}`;
    const key = (r: Record<string, unknown>) => JSON.stringify(common.map((c) => r[c] ?? null));
    const [b, a] = [(await rows(before, q)).map(key).sort(), (await rows(after, q)).map(key).sort()];
    sets++; total += b.length;
    if (b.length !== a.length || b.some((x, i) => x !== a[i])) {
      const onlyB = b.filter((x) => !a.includes(x)).slice(0, 2), onlyA = a.filter((x) => !b.includes(x)).slice(0, 2);
      problems.push(`${v} @ ${moment ?? 'horizon'}: ${b.length} rows before, ${a.length} after; only before: ${onlyB.join(' | ').slice(0, 300)}; only after: ${onlyA.join(' | ').slice(0, 300)}`);
    }
  }
}
console.log(JSON.stringify({ views: views.length, moments: moments.length, result_sets: sets, rows_compared: total, differences: problems.length }, null, 1));
for (const p of problems) console.log('DIFF', p);
