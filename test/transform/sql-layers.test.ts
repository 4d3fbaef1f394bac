// The SQL layer rule (src/transform/sql-layers.ts) holds for every piece of SQL in the repository, and the view applier
// refuses a view that breaks it, naming the file and the reference. The layers do not interleave (issue 41): staging
// reads raw and _meta_ tables, intermediate reads staging and intermediate, marts read intermediate and marts, report
// views read marts and report views – each rule shown to catch a violation injected into a real file.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listReportFiles, loadReportDefinition } from '../../src/report/definition/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { readSqlFolder, SQL_DIR } from '../../src/transform/sql-files.ts';
import { layerViolations, type SerializeSql, type SqlReader } from '../../src/transform/sql-layers.ts';
import { applyViews, checkViewLayers, listViewFiles, sqlObjects, type ViewFile } from '../../src/transform/views.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const objects = sqlObjects(listViewFiles());
// DuckDB's parser on a scratch in-memory database: the check reads SQL as the database does
let scratch: DuckDBConnection;
const serialize: SerializeSql = async (sql) => String((await scratch.runAndReadAll('select json_serialize_sql($1::varchar)', [sql])).getRows()[0]![0]);
const broken = async (sql: string, reader: SqlReader) => (await layerViolations(sql, reader, objects, serialize)).map((v) => v.reference);

describe('the SQL layer rule', () => {
  let store: Store | undefined;
  beforeAll(async () => {
    scratch = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(() => scratch?.closeSync());
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it('holds for every view: staging reads raw, intermediate staging, marts intermediate, report views marts', async () => {
    await expect(checkViewLayers(listViewFiles(), serialize)).resolves.toBeUndefined();
  });

  /** The repository's view and macro files with one file's text edited (the edit must change it). */
  function injected(file: string, edit: (sql: string) => string): ViewFile[] {
    const files = listViewFiles();
    const at = files.findIndex((f) => `${f.layer}/${f.name}` === file);
    expect(at, file).toBeGreaterThanOrEqual(0);
    const sql = edit(files[at]!.sql);
    expect(sql, `the injection into ${file}`).not.toBe(files[at]!.sql);
    return files.map((f, i) => (i === at ? { ...f, sql } : f));
  }

  const refused = (files: ViewFile[]) => expect(checkViewLayers(files, serialize)).rejects;

  it('refuses staging that reads another staging view, naming the file and the view', async () => {
    const files = injected('staging/stg_runs', (sql) => sql.replace('select * from _meta_runs', 'select * from _meta_runs, stg_watermarks'));
    await refused(files).toThrow(/^view staging\/stg_runs\.sql reads stg_watermarks \(a staging view\), but staging may read only raw tables, _meta_ tables – /);
  });

  it('refuses an intermediate view that reads a mart, a report view or the report clock', async () => {
    const reading = (relation: string) => injected('intermediate/int_load_coverage', (sql) => sql.replace('select * from stg_runs', `select * from stg_runs, ${relation}`));
    const rule = 'but intermediate views may read only staging views, intermediate views \\(int_\\*\\), materialised tables \\(fct_\\*\\) – ';
    await refused(reading('cost_daily')).toThrow(new RegExp(`^view intermediate/int_load_coverage\\.sql reads cost_daily \\(a mart\\), ${rule}`));
    await refused(reading('rpt_runs')).toThrow(new RegExp(`^view intermediate/int_load_coverage\\.sql reads rpt_runs \\(a report view\\), ${rule}`));
    await refused(reading('report_clock')).toThrow(/^view intermediate\/int_load_coverage\.sql reads report_clock \(the report clock\)/);
  });

  it('refuses a mart that reads staging, a raw table or a report view', async () => {
    const reading = (relation: string) => injected('marts/cost_daily', (sql) => sql.replace('select * from fct_cost_daily', `select * from fct_cost_daily, ${relation}`));
    const rule = 'but marts may read only intermediate views \\(int_\\*\\), materialised tables \\(fct_\\*\\), marts, report_clock – ';
    await refused(reading('stg_pods')).toThrow(new RegExp(`^view marts/cost_daily\\.sql reads stg_pods \\(a staging view\\), ${rule}`));
    await refused(reading('raw_billing_pods')).toThrow(/^view marts\/cost_daily\.sql reads raw_billing_pods \(a raw table\)/);
    await refused(reading('rpt_spend_daily')).toThrow(new RegExp(`^view marts/cost_daily\\.sql reads rpt_spend_daily \\(a report view\\), ${rule}`));
  });

  it('refuses a report view that reads an intermediate view or staging', async () => {
    const reading = (relation: string) => injected('reports/rpt_runs', (sql) => sql.replace('select * from dim_run', `select * from dim_run, ${relation}`));
    const rule = 'but report views may read only marts, report views, report_clock – put the logic in a mart';
    await refused(reading('int_runs')).toThrow(new RegExp(`^view reports/rpt_runs\\.sql reads int_runs \\(an intermediate view\\), ${rule}`));
    await refused(reading('stg_runs')).toThrow(new RegExp(`^view reports/rpt_runs\\.sql reads stg_runs \\(a staging view\\), ${rule}`));
    await refused(reading('fct_cost_daily')).toThrow(/^view reports\/rpt_runs\.sql reads fct_cost_daily \(a materialised table\)/);
  });

  it('holds a macro to the rule of each view that calls it: a report view calling one that reads an intermediate view', async () => {
    const files = injected('macros/int_spend_periods_in', (sql) => sql.replace('from spend_periods', 'from spend_periods semi join int_runs on true'));
    await refused(files).toThrow(/^view reports\/rpt_spend_daily\.sql reads int_runs \(an intermediate view\) through the macro int_spend_periods_in, but report views/);
  });

  it('keeps the macros in sql/macros, outside every layer: a macro file among the views is a view file that creates none', () => {
    for (const f of listViewFiles()) expect(/^\s*create\s+(or\s+replace\s+)?macro\b/im.test(f.sql), f.path).toBe(f.layer === 'macros');
    expect(listViewFiles().filter((f) => f.layer === 'macros').length).toBeGreaterThan(0);
  });

  it('holds for the alert rules, the queries of allocation explain, of the refresh and of metrics import', async () => {
    for (const [folder, reader] of [['alerts', 'alerts'], ['allocation', 'allocation'], ['materialize', 'materialize'], ['metrics', 'metrics']] as const) {
      for (const f of readSqlFolder(folder)) expect(await broken(f.sql, reader), `sql/${folder}/${f.name}.sql`).toEqual([]);
    }
  });

  it('holds for every report definition: its sheets, blocks and charts read report views only', async () => {
    for (const name of listReportFiles(undefined).keys()) {
      const def = loadReportDefinition(name, undefined);
      const texts = def.sheets.flatMap((s) => (s.kind === 'table' ? [s.sql ?? `select * from ${s.view}`] : [...s.blocks.map((b) => b.sql), ...s.charts.map((c) => c.sql)]));
      expect(texts.length).toBeGreaterThan(0);
      for (const sql of texts) expect(await broken(sql, 'definitions'), `${name}: ${sql}`).toEqual([]);
    }
  });

  it('names what a report view may not read: a staging view, a raw table – however the SQL is written', async () => {
    expect(await broken('select * from stg_pods p join cost_daily c using (account)', 'reports')).toEqual(['stg_pods']);
    expect(await broken('select * from raw_billing_pods', 'marts')).toEqual(['raw_billing_pods']);
    expect(await broken('select * from int_runs r join cost_daily c on true', 'reports')).toEqual(['int_runs']);
    expect(await broken('select * from raw_runs, stg_runs', 'staging')).toEqual(['stg_runs']);
    expect(await broken('select * from stg_runs, dim_run, rpt_runs', 'intermediate')).toEqual(['dim_run', 'rpt_runs']);
    expect(await broken('select * from int_runs, stg_runs, rpt_runs', 'marts')).toEqual(['rpt_runs', 'stg_runs']);
    expect(await broken("select 'from stg_pods' as s from rpt_spend_daily -- join stg_pods", 'definitions')).toEqual([]);
    // what word matching missed: a comma join, a quoted name, a schema-qualified name, a subquery, a CTE body
    expect(await broken('select * from cost_daily c, stg_pods p where c.account = p.account', 'reports')).toEqual(['stg_pods']);
    expect(await broken('select * from "stg_pods"', 'reports')).toEqual(['stg_pods']);
    expect(await broken('select * from main.STG_PODS', 'reports')).toEqual(['stg_pods']);
    expect(await broken('select * from cost_daily where resource_id in (select pod_id from raw_billing_pods)', 'reports')).toEqual(['raw_billing_pods']);
    expect(await broken('with p as (select * from stg_pods) select * from p', 'definitions')).toEqual(['stg_pods']);
    // a macro file: its body is what reads
    expect(await broken('create or replace macro int_x_in(a) as table select * from stg_pods where day >= a', 'reports')).toEqual(['stg_pods']);
  });

  it('refuses SQL its parser does not take rather than passing it unread', async () => {
    await expect(broken('selec * frm stg_pods', 'reports')).rejects.toThrow(/cannot parse/);
  });

  it('makes the view applier refuse a report view that reads staging, naming the file and the reference', async () => {
    const sqlDir = join(tempDir('gpuledger-layers-').dir, 'sql');
    cpSync(SQL_DIR, sqlDir, { recursive: true });
    const file = join(sqlDir, 'views/reports/rpt_by_category.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^with /m, 'with pods as (\n    select * from stg_pods\n),\n\n'));
    store = await openStore({ path: join(tempDir('gpuledger-layers-db-').dir, 'v.duckdb'), applyViews: false });
    await expect(applyViews(store, sqlDir)).rejects.toThrow(
      /^view reports\/rpt_by_category\.sql reads stg_pods \(a staging view\), but report views may read only marts, report views, report_clock – put the logic in a mart \(sql\/views\/marts\/\) and read that$/,
    );
  });
});
