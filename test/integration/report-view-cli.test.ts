// `gpuledger report --view <name>` as a user and the scheduler run it (issue 39 §2): each of the example config's three
// views written as a workbook and a page, paths on stdout, and with --email delivered through a real SMTP server on
// 127.0.0.1 to reports.delivery.<name>.recipients – the workbook attached, its chart inline, the subject the view's;
// the same args a schedule job passes. Refusals are one line: --view with --report, an unknown view, and a filter
// value no row has (checked when the database is read, naming the view and values that exist).
import ExcelJS from 'exceljs';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_CONFIG } from '../../src/config/demo-database.ts';
import { gpuledger } from '../helpers/cli.ts';
import { flatten, parseMime, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';
import type { TempDir } from '../helpers/temp-dir.ts';

const PASSWORD = 'view-smtp-pw-8d21c0-secret';
const VIEWS = ['imaging-90d', 'gpu-by-week', 'top-templates-mtd'];

describe('gpuledger report --view', () => {
  let tmp: TempDir;
  let smtp: TestSmtp;
  let configFile: string;
  const env = { GPULEDGER_SMTP_PASSWORD: PASSWORD, GPULEDGER_LOG_LEVEL: 'info' };

  /** The example config, pointed at this test's database, output folder and SMTP server, with `views` as given. */
  function writeConfig(name: string, views?: unknown[]): string {
    const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8'));
    const file = join(tmp.dir, 'config', `${name}.json`);
    mkdirSync(join(tmp.dir, 'config'), { recursive: true });
    const delivery = Object.fromEntries(VIEWS.map((v) => [v, { recipients: [`${v}@example.com`] }]));
    writeFileSync(
      file,
      JSON.stringify({
        ...example,
        $schema: undefined,
        database: tmp.db,
        outDir: join(tmp.dir, 'out'),
        accounts: [{ name: 'sim', apiKeyEnv: 'GPULEDGER_TEST_KEY', simulated: true }],
        export: {},
        alerts: { ...example.alerts, channels: [{ type: 'stdout' }] },
        smtp: { host: '127.0.0.1', port: smtp.port, user: 'gpuledger', passwordEnv: 'GPULEDGER_SMTP_PASSWORD', from: 'gpuledger <finops@example.com>', timeoutSeconds: 10 },
        reports: { ...example.reports, delivery: { ...delivery, 'imaging-90d': { ...example.reports.delivery['imaging-90d'], recipients: ['imaging-lead@example.com'] } }, email: { attempts: 1 } },
        ...(views ? { views } : {}),
      }),
    );
    return file;
  }

  beforeAll(async () => {
    tmp = await syncedDatabase('gpuledger-report-view-');
    smtp = await startSmtp({ user: 'gpuledger', password: PASSWORD });
    configFile = writeConfig('example');
  }, 120_000);
  afterAll(async () => {
    await smtp?.close();
    tmp?.cleanup();
  });

  it('writes each example view as a workbook and a page, the paths on stdout, workbook first', async () => {
    for (const name of VIEWS) {
      const r = await gpuledger(['--config', configFile, 'report', '--view', name], env);
      expect(r.stderr, name).not.toMatch(/error/i);
      expect(r.code, r.stderr).toBe(0);
      const paths = r.stdout.trim().split('\n');
      expect(paths).toHaveLength(2);
      expect(paths[0]).toMatch(new RegExp(`/out/gpuledger-view-${name}-\\d{4}-\\d\\d-\\d\\d_\\d{4}-\\d\\d-\\d\\d\\.xlsx$`));
      expect(paths[1]).toBe(paths[0]!.replace(/\.xlsx$/, '.html'));
      const html = readFileSync(paths[1]!, 'utf8');
      expect(html).toContain('<table id="explore-table">');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(paths[0]!);
      expect(wb.worksheets.map((w) => w.name)).toEqual([name]);
    }
  });

  it('emails a view with the schedule job\'s args to reports.delivery.<name>.recipients: the workbook attached, the chart inline', async () => {
    const before = smtp.received.length;
    // the example's schedule job, as the daemon passes it
    const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8'));
    const job = example.schedule.jobs.find((j: { name: string }) => j.name === 'imaging-weekly');
    expect(job).toMatchObject({ command: 'report', args: ['--view', 'imaging-90d', '--email'] });
    const r = await gpuledger(['--config', configFile, job.command, ...job.args], env);
    expect(r.code, r.stderr).toBe(0);
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(['imaging-lead@example.com']);
    const root = parseMime(mail.raw);
    expect(root.headers.subject).toBe('[SIMULATED DATA] Imaging team: the last 90 days by endpoint');
    const parts = flatten(root);
    const xlsx = parts.find((p) => p.contentType.includes('spreadsheetml'))!;
    const written = r.stdout.trim().split('\n')[0]!;
    expect(xlsx.body.equals(readFileSync(written))).toBe(true);
    expect(parts.some((p) => p.contentType.startsWith('image/png'))).toBe(true);
    const text = parts.find((p) => p.contentType.startsWith('text/plain'))!.body.toString('utf8').replace(/\r\n/g, '\n');
    expect(text).toMatch(/^Imaging team, 90 days by endpoint\n/);
    expect(text).toMatch(/\nTotal: \$[\d,]+\.\d\d \(\d{4}-\d\d-\d\d – \d{4}-\d\d-\d\d\)\n/);
  });

  it('emails every example view to its own recipients, the workbook attached byte for byte', async () => {
    for (const name of ['gpu-by-week', 'top-templates-mtd']) {
      const before = smtp.received.length;
      const r = await gpuledger(['--config', configFile, 'report', '--view', name, '--email'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(smtp.received.length, name).toBe(before + 1);
      const mail = smtp.received.at(-1)!;
      expect(mail.to).toEqual([`${name}@example.com`]);
      const xlsx = flatten(parseMime(mail.raw)).find((p) => p.contentType.includes('spreadsheetml'))!;
      expect(xlsx.body.equals(readFileSync(r.stdout.trim().split('\n')[0]!)), name).toBe(true);
    }
  });

  it('refuses --view with --report in one line (exit 2), writing nothing', async () => {
    const r = await gpuledger(['--config', configFile, 'report', '--view', 'imaging-90d', '--report', 'nightly'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('gpuledger: --view and --report cannot be used together: a saved view has its own range and writes both a workbook and a page (gpuledger report --view <name> [--out-dir DIR] [--email])');
    expect(r.stdout).toBe('');
    // a saved view is no per-value report either
    const c = await gpuledger(['--config', configFile, 'report', '--view', 'imaging-90d', '--category', 'team'], env);
    expect(c.code).toBe(2);
    expect(c.stderr.trim()).toMatch(/^gpuledger: --view and --category cannot be used together: /);
  });

  it('names the config\'s views when asked for one it does not have (exit 2)', async () => {
    const r = await gpuledger(['--config', configFile, 'report', '--view', 'imaging'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("gpuledger: no saved view 'imaging': the config's views are imaging-90d, gpu-by-week, top-templates-mtd");
  });

  it('refuses a view whose filter value is in no row when the database is read, naming the view, the value and some that exist', async () => {
    const file = writeConfig('bad-value', [{ name: 'ghost', title: 'A template nobody ran', range: '30d', by: ['endpoint'], filters: [{ dimension: 'template', value: 'no-such-template' }] }]);
    const r = await gpuledger(['--config', file, 'report', '--view', 'ghost'], env);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n').filter((l) => l.startsWith('gpuledger:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gpuledger: view 'ghost': filter template:no-such-template: no template 'no-such-template' in the data; values include '.+'/);
  });

  it('refuses a view naming an unknown dimension at config load, in one line (exit 2)', async () => {
    const file = writeConfig('bad-dimension', [{ name: 'by-team', title: 'By team', by: ['team'] }]);
    const r = await gpuledger(['--config', file, 'report', '--view', 'by-team'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^gpuledger: config .*bad-dimension\.json: views\.1: view 'by-team': by 'team' is not a dimension: use family, template, endpoint, gpu_type, resource, account, component or category:<name>$/);
  });
});
