// The two shipped workbooks – nightly for its default period and finance-monthly for the month before – rendered from
// one store and read back: what the tests of the shipped definitions compare with the views.
import type ExcelJS from 'exceljs';
import type { Config } from '../../src/config/schema.ts';
import { renderReport, type RenderedReport } from '../../src/report/render.ts';
import type { Store } from '../../src/store/database.ts';
import { readWorkbook } from './workbook-read.ts';

export interface ShippedWorkbooks {
  dir: string;
  store: Store;
  nightly: RenderedReport;
  monthly: RenderedReport;
  /** The nightly workbook as read back. */
  nwb: ExcelJS.Workbook;
  /** The finance-monthly workbook as read back. */
  mwb: ExcelJS.Workbook;
  /** The value `v` of a query's one row, as text (null without a row). */
  one(sql: string): Promise<string | null>;
  /** Closes the store. */
  stop(): Promise<void>;
}

/** Renders both into `dir` from `store` (after `fill`, if given); a step that fails closes the store. */
export async function shippedWorkbooks(at: { dir: string; store: Store }, config: Config, fill?: (store: Store) => Promise<void>): Promise<ShippedWorkbooks> {
  const { dir, store } = at;
  try {
    await fill?.(store);
    const nightly = await renderReport({ store, config, report: 'nightly', outDir: dir });
    const monthly = await renderReport({ store, config, report: 'finance-monthly', outDir: dir });
    return {
      dir,
      store,
      nightly,
      monthly,
      nwb: await readWorkbook(nightly.path),
      mwb: await readWorkbook(monthly.path),
      one: async (sql) => (await store.one<{ v: string }>(sql))?.v ?? null,
      stop: () => store.close(),
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
