// The truth audit (issue 25 §5): every summary figure of both shipped reports against the simulator's own ledger –
// what every resource cost each hour, the top-ups and the balance after every charge, the spend limit – never
// against our views. The account is synced as the demo is, the simulator is then started again two days later
// (same seed and anchor: the same account, seen later, as `npm start` the next night sees it) and synced again as
// the nightly job does; the reports are rendered as workbook and HTML page from that store.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import type { Config } from '../../src/config/schema.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import { runNightly, type NightlyResult } from '../../src/run/nightly.ts';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { withReader } from '../../src/store/shared-database.ts';
import { microsToDecimalString } from '../../src/util/decimal.ts';
import { silentLogger } from '../../src/util/log.ts';
import { FAST_QUOTAS, KEY, tempDir, type TempDir } from './sync-helpers.ts';
import { columnOf, headerRow, readWorkbook, sheet } from '../report/workbook-read.ts';

const DAY = 86_400_000;
const ANCHOR = '2026-11-20T12:34:56Z';
const FIRST = ANCHOR;
const SECOND = '2026-11-22T15:10:00Z';

const usd = (micros: bigint | number) => microsToDecimalString(BigInt(micros));
const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const dayStart = (d: string) => Date.parse(`${d}T00:00:00Z`);

function demoConfig(sim: Simulator, dir: string): Config {
  return parseConfig(
    {
      apiUrl: sim.url,
      outDir: dir,
      accounts: [{ name: 'demo', apiKeyEnv: 'GPULEDGER_TEST_KEY', simulated: true }],
      // September on: the previous month of both reports is loaded in full
      sync: { start: '2026-09-01T00:00:00Z' },
      alerts: { channels: [{ type: 'file', path: `${dir}/alerts.ndjson` }] },
    },
    'test',
  );
}

async function nightly(sim: Simulator, tmp: TempDir): Promise<NightlyResult> {
  const config = demoConfig(sim, tmp.dir);
  const result = await runNightly({
    config,
    dbPath: tmp.db,
    accounts: resolveAccounts(config, sim.url, { GPULEDGER_TEST_KEY: KEY }),
    log: silentLogger,
    outDir: tmp.dir,
    email: false,
    client: { initialRatePerSecond: 1000 },
  });
  expect(result.steps.map((s) => [s.step, s.status])).toContainEqual(['sync', 'ok']);
  return result;
}

describe('truth audit: both reports against the simulator ledger, after a second night', () => {
  let tmp: TempDir;
  let sim: Simulator;
  let night: NightlyResult;
  let monthly: RenderedFormats;
  let nwb: ExcelJS.Workbook;
  let mwb: ExcelJS.Workbook;
  let nhtml: string;
  let mhtml: string;
  /** What the ledger billed in [a, b), all routes together, as the API answers at the simulator's now. */
  const billed = (a: number, b: number) => sim.ledger.sum({ source: 'aggregate', start: new Date(a), end: new Date(Math.min(b, sim.now().getTime())) }).totalAmount;
  const figure = (r: { summary: { figures: { label: string; value: unknown }[] } }, label: string) => {
    const f = r.summary.figures.find((x) => x.label === label);
    expect(f, label).toBeDefined();
    return f!.value;
  };

  beforeAll(async () => {
    tmp = tempDir('gpuledger-truth-');
    const first = await startSimulator({ now: FIRST, anchor: ANCHOR, quotas: FAST_QUOTAS });
    try {
      await nightly(first, tmp);
    } finally {
      await first.close();
    }
    sim = await startSimulator({ now: SECOND, anchor: ANCHOR, quotas: FAST_QUOTAS });
    night = await nightly(sim, tmp);
    const config = demoConfig(sim, tmp.dir);
    monthly = await withReader(tmp.db, (store) => renderReportFormats({ store, config, report: 'finance-monthly', outDir: tmp.dir, formats: ['xlsx', 'html'] }));
    nwb = await readWorkbook(night.workbook!.path);
    mwb = await readWorkbook(monthly.workbook!.path);
    nhtml = readFileSync(night.html!.path, 'utf8');
    mhtml = readFileSync(monthly.html!.path, 'utf8');
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    tmp?.cleanup();
  });

  it('evaluates the nightly report as of the second night and the monthly one over October', () => {
    expect(night.workbook!.summary.asOf).toBe(new Date(SECOND).toISOString());
    expect(night.workbook!.summary.period).toMatchObject({ start: '2026-11-01', end: '2026-11-22' });
    expect(monthly.workbook!.summary.period).toMatchObject({ start: '2026-10-01', end: '2026-10-31' });
  });

  it('month to date, the previous month to the same day and in full: what the ledger billed', () => {
    const r = night.workbook!;
    const nov1 = dayStart('2026-11-01');
    const oct1 = dayStart('2026-10-01');
    expect(figure(r, 'Month to date')).toBe(usd(billed(nov1, Date.parse(SECOND))));
    expect(figure(r, 'Previous month to the same day')).toBe(usd(billed(oct1, dayStart('2026-10-23'))));
    expect(figure(r, 'Previous month in full')).toBe(usd(billed(oct1, nov1)));
    const m = monthly.workbook!;
    expect(figure(m, 'Month total')).toBe(usd(billed(oct1, nov1)));
    expect(figure(m, 'Previous month')).toBe(usd(billed(dayStart('2026-09-01'), oct1)));
  });
});
