// The SQL layer rule (src/store/sql-layers.ts) holds for every piece of SQL in the repository, and the view applier
// refuses a view that breaks it, naming the file and the reference.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listReportFiles, loadReportDefinition } from '../../src/report/definition/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { readSqlFolder, SQL_DIR } from '../../src/store/sql-files.ts';
import { layerViolations, type SqlReader } from '../../src/store/sql-layers.ts';
import { applyViews, checkViewLayers, listViewFiles, sqlObjects } from '../../src/store/views.ts';

const objects = sqlObjects(listViewFiles());
const broken = (sql: string, reader: SqlReader) => layerViolations(sql, reader, objects).map((v) => v.reference);

describe('the SQL layer rule', () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it('holds for every view: staging reads raw tables, marts read staging, report views read marts', () => {
    expect(() => checkViewLayers(listViewFiles())).not.toThrow();
  });

  it('holds for the alert rules, the queries of allocation explain, of the refresh and of metrics import', () => {
    for (const [folder, reader] of [['alerts', 'alerts'], ['allocation', 'allocation'], ['materialize', 'materialize'], ['metrics', 'metrics']] as const) {
      for (const f of readSqlFolder(folder)) expect(broken(f.sql, reader), `sql/${folder}/${f.name}.sql`).toEqual([]);
    }
  });

  it('holds for every report definition: its sheets, blocks and charts read report views only', () => {
    for (const name of listReportFiles(undefined).keys()) {
      const def = loadReportDefinition(name, undefined);
      const texts = def.sheets.flatMap((s) => (s.kind === 'table' ? [s.sql ?? `select * from ${s.view}`] : [...s.blocks.map((b) => b.sql), ...s.charts.map((c) => c.sql)]));
      expect(texts.length).toBeGreaterThan(0);
      for (const sql of texts) expect(broken(sql, 'definitions'), `${name}: ${sql}`).toEqual([]);
    }
  });

  it('names what a report view may not read: a staging view, a raw table', () => {
    expect(broken('select * from stg_pods p join cost_daily c using (account)', 'reports')).toEqual(['stg_pods']);
    expect(broken('select * from raw_billing_pods', 'marts')).toEqual(['raw_billing_pods']);
    expect(broken("select 'from stg_pods' as s from rpt_spend_daily -- join stg_pods", 'definitions')).toEqual([]);
  });

  it('makes the view applier refuse a report view that reads staging, naming the file and the reference', async () => {
    const sqlDir = join(mkdtempSync(join(tmpdir(), 'gpuledger-layers-')), 'sql');
    cpSync(SQL_DIR, sqlDir, { recursive: true });
    const file = join(sqlDir, 'views/reports/rpt_spend_daily.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^with /m, 'with pods as (\n    select * from stg_pods\n),\n\n'));
    store = await openStore({ path: join(mkdtempSync(join(tmpdir(), 'gpuledger-layers-db-')), 'v.duckdb'), applyViews: false });
    await expect(applyViews(store, sqlDir)).rejects.toThrow(
      /^view reports\/rpt_spend_daily\.sql reads stg_pods \(a staging view\), but report views may read only marts, .* – move the joins into a mart/,
    );
  });
});
