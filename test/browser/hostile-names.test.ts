// Hostile names end to end (issue 37 §2, §5, §6): a database synced from the simulator's --hostile-names (markup,
// formulas, a leading tab or CR, U+202E, CR/LF, 40,000 characters in every name), and every place a person meets
// a name. Each CSV a person downloads – serve's view, explore, SQL and report-sheet CSVs, the HTML report's CSV
// button, `query --csv-safe` – opened in LibreOffice with formula evaluation on holds no formula: every neutralised
// cell reads as the text written, the leading ' shown; the workbook cuts the long name with a visible mark while
// the database keeps it whole; the terminal table, the alerts and the alert email show control and bidi characters
// escaped; the HTML pages show the names as text.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { emailChannel } from '../../src/alert/channels/email.ts';
import { evaluateAt } from '../../src/alert/evaluate.ts';
import { smtpConfigSchema } from '../../src/config/smtp.ts';
import { createMailer } from '../../src/mail/index.ts';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import { openStore } from '../../src/store/database.ts';
import { DuckDBInstance } from '../../src/util/duckdb-api.ts';
import { silentLogger } from '../../src/util/log.ts';
import { chromiumAvailable, watchedPage } from '../helpers/browser.ts';
import { gpuledger } from '../helpers/cli.ts';
import { hostileDatabase, type HostileDatabase } from '../helpers/hostile-fixture.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { loopback, serveInChromium, type ServedChromium } from '../helpers/served-chromium.ts';
import { flatten, parseMime, startSmtp } from '../helpers/smtp.ts';
import { NOW } from '../helpers/sync.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const soffice = ['soffice', 'libreoffice'].find((cmd) => spawnSync(cmd, ['--version'], { encoding: 'utf8' }).status === 0);
if (!soffice) console.warn('SKIPPED: LibreOffice (soffice) is not installed – the hostile CSVs are not opened in an office suite');

// LibreOffice's CSV import (its FilterOptions): comma, double quote, UTF-8, from line 1, language en-US, quoted fields
// not forced to text, and token 13 – evaluate formulas – on: what a spreadsheet that runs a formula does
const CSV_IMPORT = 'CSV:44,34,76,1,,1033,false,false,false,false,false,-1,true';
const FORMULA_START = /^[=+\-@\t\r]/;
const BIDI = '\u202E';

/** Minimal CSV reader for the CSVs under test (comma, double quotes, CRLF records, line breaks inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += ch;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** Every CSV converted by LibreOffice to a workbook, read back with exceljs: [file → rows of cells]. */
async function openedInLibreOffice(files: string[], outDir: string): Promise<Map<string, ExcelJS.Cell[][]>> {
  const profile = pathToFileURL(tempDir('gpuledger-lo-profile-').dir).href;
  const r = spawnSync(soffice!, [`-env:UserInstallation=${profile}`, '--headless', `--infilter=${CSV_IMPORT}`, '--convert-to', 'xlsx', '--outdir', outDir, ...files], { encoding: 'utf8', timeout: 240_000 });
  if (r.status !== 0) throw new Error(`soffice failed (${r.status}): ${r.stderr}`);
  const opened = new Map<string, ExcelJS.Cell[][]>();
  for (const file of files) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(outDir, file.split('/').pop()!.replace(/\.csv$/, '.xlsx')));
    const rows: ExcelJS.Cell[][] = [];
    wb.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => {
      const cells: ExcelJS.Cell[] = [];
      row.eachCell({ includeEmpty: true }, (c) => cells.push(c));
      rows.push(cells);
    });
    opened.set(file, rows);
  }
  return opened;
}

interface Fixture extends ServedChromium {
  hostile: HostileDatabase;
  rendered: RenderedFormats;
  /** A copy of the database for the alert rules, which the test reads while serve holds the first. */
  alertsDb: string;
  /** Every name the simulator served. */
  names: Set<string>;
}

async function start(): Promise<Fixture> {
  const hostile = await hostileDatabase('gpuledger-hostile-names-');
  const a = hostile.account;
  const names = new Set([...a.templates.map((t) => t.name), ...a.pods.flatMap((p) => p.names.map((n) => n.name)), ...a.endpoints.map((e) => e.name), ...a.volumes.map((v) => v.name), ...a.clusters.map((c) => c.name), ...a.gpus.map((g) => g.name)]);
  let rendered: RenderedFormats;
  const store = await openStore({ path: hostile.db, command: 'test' });
  try {
    rendered = await renderReportFormats({ store, config: testConfig({ timeZone: 'UTC' }), report: 'nightly', outDir: hostile.dir, formats: ['html', 'xlsx'] });
  } finally {
    await store.close();
  }
  const alertsDb = join(hostile.dir, 'alerts.duckdb');
  copyFileSync(hostile.db, alertsDb);
  const served = await serveInChromium(hostile, { warmPages: false });
  return { ...served, hostile, rendered, alertsDb, names };
}

describe.skipIf(!chromiumAvailable || !soffice)('hostile names from the simulator, wherever a person reads them', () => {
  const f = suiteFixture(start, 300_000);
  const get = async (path: string) => {
    const res = await fetch(f.serve.url + path);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  it('serves names with markup, formulas, bidi overrides, CR/LF and 40,000 characters, and the database keeps each whole', async () => {
    const store = await openStore({ path: f.alertsDb, command: 'test', readOnly: true });
    try {
      const named = async (column: string) => (await store.all<{ name: string }>(`select distinct ${column} as name from cost_daily where ${column} is not null`)).map((r) => r.name);
      const templates = await named('template_name');
      for (const want of ['+1', '-1', '\t=1+1', '=HYPERLINK("http://x","PyTorch 2.4")', '<script>alert(1)</script>worker-vllm', '"><img src=x onerror=alert(1)>worker-sdxl', `ComfyUI${BIDI}gpj.exe`, 'vLLM OpenAI server\r\nfake-row  0.00']) {
        expect(templates).toContain(want);
      }
      expect(await named('resource_name')).toEqual(expect.arrayContaining(['=1+1', '@SUM(1+1)', '-1', 'old-datasets\r\nfake-row  0.00', `embeddings-warm${BIDI}gpj.exe`]));
      expect(await named('gpu_type_name')).toContain('RTX 4090\r\nfake-row  0.00');
      const long = await store.one<{ n: number; name: string }>('select max(length(template_name))::integer as n, max(template_name) filter (length(template_name) > 32767) as name from cost_daily');
      expect(long!.n).toBe(40_000);
      expect(long!.name).toBe('Axolotl fine-tune '.padEnd(40_000, 'x'));
    } finally {
      await store.close();
    }
  });

  it('opens every CSV a person downloads in LibreOffice as data: no formula, each neutralised name the text written', async () => {
    const dir = join(f.hostile.dir, 'csv');
    mkdirSync(dir, { recursive: true });
    const csvs: Record<string, string> = {
      'view.csv': await get('/view/rpt_by_template.csv'),
      'view-resources.csv': await get('/view/rpt_top_resources.csv'),
      // a month a row: the long name repeated on every day makes a file LibreOffice takes long to open, and no more
      'explore.csv': await get('/explore.csv?by=template&granularity=month'),
      'explore-resources.csv': await get('/explore.csv?by=resource&by=gpu_type&granularity=month'),
      // a negative number beside a name that looks like one: the number stays a number
      'sql.csv': await get(`/sql.csv?${new URLSearchParams({ q: "select resource_name, -1.5::decimal(18, 6) as refund, -2 as n, chr(13) || '=1+1' as pod_with_cr from cost_daily group by all order by all" })}`),
      'report-sheet.csv': await get('/report/nightly/By%20template.csv'),
    };
    // the HTML report's CSV button, as Chromium downloads it from the page's own script
    const w = await watchedPage(f.browser, { allow: (u) => u.startsWith('file:') || u.startsWith('blob:') });
    await w.page.goto(pathToFileURL(f.rendered.html!.path).href);
    const [download] = await Promise.all([w.page.waitForEvent('download'), w.page.locator('#s-by-template button[data-csv]').click()]);
    csvs['report-button.csv'] = readFileSync((await download.path())!, 'utf8');
    await w.page.context().close();
    const query = await gpuledger(['--db', f.alertsDb, 'query', 'select template_name, sum(amount) as usd from cost_daily group by all order by all', '--format', 'csv', '--csv-safe']);
    expect(query.code, query.stderr).toBe(0);
    csvs['query.csv'] = query.stdout;
    for (const [name, text] of Object.entries(csvs)) writeFileSync(join(dir, name), text);

    const files = Object.keys(csvs).map((n) => join(dir, n));
    const opened = await openedInLibreOffice(files, join(dir, 'opened'));
    for (const file of files) {
      const written = parseCsv(readFileSync(file, 'utf8'));
      const cells = opened.get(file)!;
      const formulas = cells.flat().filter((c) => c.type === ExcelJS.ValueType.Formula).map((c) => `${c.address}: ${JSON.stringify(c.value)}`);
      expect(formulas, file).toEqual([]);
      let neutralised = 0;
      written.forEach((row, r) =>
        row.forEach((field, c) => {
          // a text that would start a formula is written with a ' and is no name a spreadsheet could run…
          expect(FORMULA_START.test(field) && !/^-?\d+(\.\d+)?$/.test(field), `${file} row ${r + 1} column ${c + 1}: ${JSON.stringify(field)}`).toBe(false);
          if (!field.startsWith("'")) return;
          neutralised++;
          expect(f.names.has(field.slice(1)) || f.names.has(field.slice(1).replace(/\r\n/g, '\n')), `${file}: ${JSON.stringify(field.slice(0, 60))} is a served name`).toBe(true);
          // …and LibreOffice reads it as that text, the ' shown (a line break inside it read as LF)
          const cell = cells[r]?.[c];
          expect(cell?.type, `${file} ${cell?.address}`).toBe(ExcelJS.ValueType.String);
          expect(String(cell?.value).replace(/\r\n|\r/g, '\n'), `${file} ${cell?.address}`).toBe(field.replace(/\r\n|\r/g, '\n'));
        }),
      );
      expect(neutralised, `${file} holds formula-like names`).toBeGreaterThanOrEqual(3);
    }
    // numbers stay numbers, a negative one included
    const sql = opened.get(join(dir, 'sql.csv'))!;
    const refund = sql[0]!.findIndex((c) => c.value === 'refund');
    expect(sql.slice(1).map((row) => row[refund]!.value)).toEqual(sql.slice(1).map(() => -1.5));
    expect(sql.slice(1).map((row) => row[refund + 1]!.value)).toEqual(sql.slice(1).map(() => -2));
  }, 300_000);

  it('keeps query --format csv exact without --csv-safe, for a program that reads it', async () => {
    const exact = await gpuledger(['--db', f.alertsDb, 'query', "select template_name from cost_daily where template_name in ('+1', '-1') group by all order by all", '--format', 'csv']);
    expect(exact.stdout).toBe('template_name\r\n+1\r\n-1\r\n');
    const refused = await gpuledger(['--db', f.alertsDb, 'query', 'select 1', '--format', 'json', '--csv-safe']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('--csv-safe applies to CSV output only');
  });

  it('cuts the 40,000-character name in its workbook cell at 32,767 with a visible mark; names stay text in LibreOffice', async () => {
    // the workbook as written, and as LibreOffice opens and saves it again: what a person's spreadsheet reads
    const resaved = join(f.hostile.dir, 'resaved');
    const profile = pathToFileURL(tempDir('gpuledger-lo-profile-').dir).href;
    const r = spawnSync(soffice!, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'xlsx', '--outdir', resaved, f.rendered.workbook!.path], { encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
    for (const path of [f.rendered.workbook!.path, join(resaved, f.rendered.workbook!.path.split('/').pop()!)]) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(path);
      const cells = wb.worksheets.flatMap((ws) => {
        const out: ExcelJS.Cell[] = [];
        ws.eachRow((row) => row.eachCell((c) => out.push(c)));
        return out;
      });
      const texts = cells.flatMap((c) => (typeof c.value === 'string' ? [c.value] : []));
      const long = texts.filter((t) => t.startsWith('Axolotl fine-tune x'));
      expect(long.length, path).toBeGreaterThan(0);
      for (const t of long) {
        expect(t).toHaveLength(32_767);
        expect(t.endsWith('xxx… [cut: 40,000 characters]')).toBe(true);
      }
      expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(32_767);
      // no name is a formula: the only formulas are the totals rows' sums; a formula-like name is a string cell
      const formulas = cells.filter((c) => c.type === ExcelJS.ValueType.Formula).map((c) => String((c.value as ExcelJS.CellFormulaValue).formula));
      for (const formula of formulas) expect(formula, path).toMatch(/^SUM\([A-Z]+\d+:[A-Z]+\d+\)$/);
      for (const name of ['+1', '-1', '\t=1+1', '=HYPERLINK("http://x","PyTorch 2.4")']) {
        // LibreOffice drops the leading whitespace of a string cell's text as it opens it: still text, no formula
        const shown = path.includes('/resaved/') ? name.trimStart() : name;
        expect(cells.some((c) => c.type === ExcelJS.ValueType.String && c.value === shown), `${path}: ${JSON.stringify(name)}`).toBe(true);
      }
    }
  }, 300_000);

  it('writes the names into the Parquet lake as VARCHAR, exactly as the database holds them', async () => {
    const lake = join(f.hostile.dir, 'lake');
    const r = await gpuledger(['--db', f.alertsDb, 'export', 'lake', '--out', lake]);
    expect(r.code, r.stderr).toBe(0);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const db = await DuckDBInstance.create(f.alertsDb, { access_mode: 'READ_ONLY' });
    const dbConnection = await db.connect();
    try {
      const read = async (c: typeof connection, sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJson();
      const parquet = `read_parquet('${lake}/cost_daily/**/*.parquet', hive_partitioning = true)`;
      const [type] = await read(connection, `select typeof(any_value(template_name)) as t, typeof(any_value(resource_name)) as r from ${parquet}`);
      expect(type).toEqual({ t: 'VARCHAR', r: 'VARCHAR' });
      const names = (from: string) => `select distinct template_name as n from ${from} where template_name is not null order by n`;
      const inLake = (await read(connection, names(parquet))).map((x) => x.n);
      const inDb = (await read(dbConnection, names('cost_daily'))).map((x) => x.n);
      expect(inLake).toEqual(inDb);
      expect(inLake).toEqual(expect.arrayContaining(['+1', '-1', '\t=1+1', 'Axolotl fine-tune '.padEnd(40_000, 'x')]));
    } finally {
      dbConnection.closeSync();
      db.closeSync();
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('shows CR, LF and U+202E escaped in the terminal table, one row per row', async () => {
    const r = await gpuledger(['--db', f.alertsDb, 'query', "select template_name from cost_daily where template_name like '%gpj.exe' or template_name like '%fake-row%' group by all order by all", '--format', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\r\u202E]/);
    expect(r.stdout.split('\n')).toEqual(['template_name', expect.stringMatching(/^-+$/), 'ComfyUI\\u202Egpj.exe', 'vLLM OpenAI server\\r\\nfake-row  0.00', '']);
  });

  it('shows them escaped in alert titles and messages and in the alert email\'s plain text', async () => {
    const config = testConfig({ timeZone: 'UTC', alerts: { waste: { enabled: true, minMonthlyCost: '1.00' }, anomaly: { enabled: false }, runway: { enabled: false }, unitCost: { enabled: false }, dataQuality: { enabled: false } } });
    const store = await openStore({ path: f.alertsDb, command: 'test' });
    let events;
    try {
      events = (await evaluateAt(store, { config }, new Date(NOW), silentLogger)).plan.events;
    } finally {
      await store.close();
    }
    const idle = events.find((e) => e.title.includes('embeddings-warm'));
    expect(idle?.title).toContain('embeddings-warm\\u202Egpj.exe');
    const volume = events.find((e) => e.title.includes('old-datasets'));
    expect(volume?.message).toContain('old-datasets\\r\\nfake-row  0.00');
    for (const e of events) expect(`${e.title} ${e.message}`).not.toMatch(/[\r\n\u202E\u2066-\u2069]/);
    // the details keep the names as they are: data for a program
    expect(JSON.stringify(volume?.details)).toContain('old-datasets\\r\\nfake-row');

    const smtp = await startSmtp();
    try {
      const mailer = createMailer(smtpConfigSchema.parse({ host: '127.0.0.1', port: smtp.port, from: 'gpuledger <alerts@example.com>' }));
      const outcome = await emailChannel(mailer, ['oncall@example.com'], 'info').deliver(events, { simulated: new Set(), deadline: Date.now() + 30_000, stop: new AbortController().signal, settle: async () => {} });
      expect(outcome.sent.length).toBe(events.length);
      const parts = flatten(parseMime(smtp.received.at(-1)!.raw));
      const text = parts.find((p) => p.contentType.startsWith('text/plain'))!.body.toString();
      expect(text).toContain('embeddings-warm\\u202Egpj.exe');
      expect(text).toContain('old-datasets\\r\\nfake-row  0.00');
      // the mail's own line ends are CRLF; no other CR, no override, no line a name started
      expect(text).not.toMatch(/\r(?!\n)|\u202E|^fake-row/m);
    } finally {
      await smtp.close();
    }
  });

  it('shows the names as text on the HTML pages: no markup runs, each cell the name itself', async () => {
    const w = await watchedPage(f.browser, { allow: loopback });
    const dialogs: string[] = [];
    w.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    for (const path of ['/view/rpt_by_template', '/explore?by=template', '/drill?family=pod']) {
      await w.page.goto(f.serve.url + path);
      expect(await w.page.locator('main img, main script').count(), path).toBe(0);
    }
    await w.page.goto(`${f.serve.url}/view/rpt_by_template`);
    const shown = await w.page.locator('table.data tbody td').evaluateAll((tds) => tds.map((td) => [td.textContent, td.getAttribute('data-v')]));
    for (const name of ['+1', '<script>alert(1)</script>worker-vllm', '"><img src=x onerror=alert(1)>worker-sdxl', `ComfyUI${BIDI}gpj.exe`]) {
      expect(shown.some(([text, v]) => text === name && v === name), name).toBe(true);
    }
    expect(dialogs).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });
});
