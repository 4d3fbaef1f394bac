// The SQL layer rule (src/transform/sql-layers.ts) holds for every piece of SQL in the repository, and the view applier
// refuses a view that breaks it, naming the file and the reference.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listReportFiles, loadReportDefinition } from '../../src/report/definition/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { readSqlFolder, SQL_DIR } from '../../src/transform/sql-files.ts';
import { layerViolations, type SerializeSql, type SqlReader } from '../../src/transform/sql-layers.ts';
import { applyViews, checkViewLayers, listViewFiles, sqlObjects } from '../../src/transform/views.ts';
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

  it('holds for every view: staging reads raw tables, intermediate views and marts read staging, report views read neither', async () => {
    await expect(checkViewLayers(listViewFiles(), serialize)).resolves.toBeUndefined();
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
      /^view reports\/rpt_by_category\.sql reads stg_pods \(a staging view\), but report views may read only intermediate views \(int_\*\), marts, .* – move the joins into an intermediate view/,
    );
  });
});
