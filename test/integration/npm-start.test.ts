// What a new user sees first: `npm start` on a machine without an API key runs the whole nightly job against the
// built-in simulator in the current folder – exit 0, a workbook that opens, the planted alerts in out/alerts.ndjson,
// and a plain statement that this was simulated data. Run as `npm start` runs it (node bin/gpuledger.js run
// --demo-if-no-key) in a fresh temporary folder.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

function start(cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // the script builds dist/ when stale, then runs the CLI: the test runs the CLI part as the script does
  const args = PACKAGE.scripts.start!.replace(/^node scripts\/build\.js --if-stale && node bin\/gpuledger\.js /, '').split(' ');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { ...process.env, RUNPOD_API_KEY: '', GPULEDGER_CONFIG: '', GPULEDGER_DB: '' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm start without an API key', () => {
  const dir = tempDir('gpuledger-start-').dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the demo job end to end and says it was simulated', async () => {
    expect(PACKAGE.scripts.start).toBe('node scripts/build.js --if-stale && node bin/gpuledger.js run --demo-if-no-key');
    const r = await start(dir);
    expect(r.stderr).not.toMatch(/\berror\b/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('DEMO ON SIMULATED DATA');
    expect(r.stdout).toMatch(/export RUNPOD_API_KEY=/);
    // the summary names its files as the user finds them from the folder they ran in, not by the machine's layout
    expect(r.stdout).toMatch(/^  workbook out\/gpuledger-nightly-\d{4}-\d{2}-\d{2}\.xlsx$/m);
    expect(r.stdout).not.toContain(dir);
    expect(existsSync(join(dir, 'data', 'demo.duckdb'))).toBe(true);
    // the simulated account's anchor, so that the next `npm start` sees the same past (issue 25 §2)
    expect(JSON.parse(readFileSync(join(dir, 'data', 'demo-simulator.json'), 'utf8')).anchor).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // a workbook that opens, with its sheets and a simulated label
    const books = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.xlsx'));
    expect(books).toHaveLength(1);
    expect(books[0]).toMatch(/^gpuledger-nightly-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, 'out', books[0]!));
    expect(wb.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Summary', 'Detail']));

    // the planted spike and waste are in the alerts file
    const alerts = readFileSync(join(dir, 'out', 'alerts.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(alerts.every((a) => a.simulated === true)).toBe(true);
    // the spike and the cluster start are two incidents, not one alert per series they show in: each message names
    // its series and the resource driving them
    const incidents = alerts.filter((a) => a.rule === 'anomaly');
    expect(incidents.map((a) => a.details.series_name).sort()).toEqual(['PyTorch 2.4', 'sdxl-image-api']);
    for (const a of incidents) {
      const series = a.details.series as { dimension: string; series_name: string }[];
      expect(series.length).toBeGreaterThan(1);
      for (const s of series) expect(a.message).toContain(`${s.dimension === 'gpu_type' ? 'GPU type' : s.dimension} ${s.series_name} spent`);
      expect(a.message).toMatch(new RegExp(`driven by ${a.details.drivers[0].resource_name} \\+\\$`));
    }
    expect(incidents.find((a) => a.details.series_name === 'sdxl-image-api').details.drivers[0].resource_name).toBe('sdxl-image-api');
    expect(alerts.some((a) => a.rule === 'waste' && a.details.resource_name === 'embeddings-warm')).toBe(true);
    expect(alerts.some((a) => a.rule === 'waste' && a.details.resource_name === 'old-datasets')).toBe(true);

    // the month's forecast follows what runs now (issue 36): within ±15 % of the last 7 complete days' run rate
    // carried to the month's end, and the page says by which method
    const figures = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [BIN, 'query', '--format', 'json', `select f.forecast, f.month_to_date - coalesce(o.amount, 0) as complete_to_date,
           (select sum(amount) / 7 from cost_daily, report_clock as c where day >= c.as_of_date - 7 and day < c.as_of_date) as run_rate,
           c.days_in_month - c.day_of_month + 1 as days_left
         from rpt_month_forecast as f, report_clock as c
         left join (select sum(amount) as amount from cost_daily, report_clock as c where day = c.as_of_date) as o on true
         where f.family = 'all'`],
        { cwd: dir, env: { ...process.env, RUNPOD_API_KEY: '', GPULEDGER_CONFIG: '', GPULEDGER_DB: '' } },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    const [f] = JSON.parse(figures) as { forecast: string; complete_to_date: string; run_rate: string; days_left: number }[];
    const runRate = Number(f!.complete_to_date) + Number(f!.run_rate) * Number(f!.days_left);
    expect(Math.abs(Number(f!.forecast) - runRate) / runRate, JSON.stringify(f)).toBeLessThan(0.15);
    const page = readFileSync(join(dir, 'out', readdirSync(join(dir, 'out')).find((x) => x.endsWith('.html'))!), 'utf8');
    expect(page).toContain('forecast by running resources + new-work rate');
  }, 180_000);

  it('says on a second npm start how many alerts are still firing, not only that none is new', async () => {
    // the first run announced every planted alert; nothing changed since, so no event – but they still fire (issue 38)
    const announced = readFileSync(join(dir, 'out', 'alerts.ndjson'), 'utf8').trim().split('\n').length;
    const r = await start(dir);
    expect(r.code).toBe(0);
    const line = /^  alerts\s+ok\s+(.*)$/m.exec(r.stdout)?.[1];
    expect(line).toBe(`0 alert events; ${announced} alerts firing (${announced} announced before and unchanged: serve's /alerts page lists them)`);
  }, 180_000);
});
