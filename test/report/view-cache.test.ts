// A render reads each report view that several of its queries need once (src/report/view-cache.ts).
import { describe, expect, it } from 'vitest';
import { loadReportDefinition } from '../../src/report/definition/index.ts';
import { withReportSession } from '../../src/report/report-session.ts';
import { definitionQueries, sharedReportViews } from '../../src/report/view-cache.ts';
import { listViewFiles } from '../../src/transform/views.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { syncedStore } from '../helpers/synced-fixture.ts';

const names = (queries: string[]) => sharedReportViews(queries, listViewFiles()).map((v) => v.name);

describe('report views shared by the queries of a render', () => {
  it('counts what a view reads in turn: rpt_summary_figures and the Waste block both read rpt_waste', () => {
    expect(names(['select * from rpt_summary_figures', 'select kind from rpt_waste'])).toEqual(['rpt_waste']);
  });

  it('caches nothing a single query reads, and nothing that is not a report view', () => {
    expect(names(['select * from rpt_summary_figures', 'select * from cost_daily', 'select * from cost_daily'])).toEqual([]);
  });

  it('puts a view after the cached views it reads, so it is computed from their rows', () => {
    expect(names(['select * from rpt_balance_projection', 'select * from rpt_runway'])).toEqual(['rpt_runway']);
    const got = names(['select * from rpt_balance_projection', 'select actual from rpt_balance_projection']);
    expect([...got].sort()).toEqual(['rpt_balance_daily', 'rpt_balance_projection', 'rpt_runway']);
    expect(got.at(-1)).toBe('rpt_balance_projection');
  });

  it('finds the views the nightly report reads twice', () => {
    const got = names(definitionQueries(loadReportDefinition('nightly', undefined)));
    expect(got).toEqual(expect.arrayContaining(['rpt_waste', 'rpt_runway']));
  });

  it('leaves a view read for the period alone to each query: the nightly report reads rpt_reconciliation twice, one period each', () => {
    const queries = definitionQueries(loadReportDefinition('nightly', undefined));
    // once directly (the buckets that differ), once through the macro of the sheet's figures
    expect(queries.filter((q) => /\brpt_reconciliation\b/.test(q)).length).toBe(1);
    expect(queries.filter((q) => /\brpt_reconciliation_summary_in\b/.test(q)).length).toBe(1);
    expect(names(queries)).not.toContain('rpt_reconciliation');
    expect(names(['select * from rpt_unit_cost_daily', 'select day from rpt_unit_cost_daily'])).toEqual(['rpt_unit_cost_daily']);
  });
});

describe('the shared views of a report session', () => {
  it('copies a view when the first sheet that reads it is prepared, once, and drops every copy when the session ends', async () => {
    const tmp = await syncedStore('gpuledger-view-cache-');
    try {
      const temps = async () => (await tmp.store.all<{ name: string }>(`select table_name as name from duckdb_tables() where database_name = 'temp' order by 1`)).map((r) => r.name);
      const seen: string[][] = [];
      await withReportSession({ store: tmp.store, config: testConfig(), report: 'nightly', period: '2026-10', writes: false }, async (session) => {
        const sheet = (name: string) => session.def.sheets.find((s) => s.name === name)!;
        seen.push(await temps());
        await session.prepareSheet(sheet('Waste'));
        seen.push(await temps());
        await session.prepareSheet(sheet('Summary'));
        seen.push(await temps());
        await session.prepareSheet(sheet('Waste'));
        seen.push(await temps());
      });
      const shared = names(definitionQueries(loadReportDefinition('nightly', undefined)));
      const [before, afterWaste, afterSummary, again] = seen;
      expect(before).toEqual([]);
      expect(afterWaste).toEqual(['rpt_waste']);
      // the summary reads more of them (rpt_runway among them) and finds rpt_waste already there
      expect(afterSummary).toEqual(expect.arrayContaining(['rpt_waste', 'rpt_runway']));
      expect(afterSummary!.every((n) => shared.includes(n))).toBe(true);
      expect(again).toEqual(afterSummary);
      expect(await temps()).toEqual([]);
    } finally {
      await tmp.store.close();
      tmp.cleanup();
    }
  }, 60_000);
});
