// Showback on the demo (issue 39 §3): `npm start`'s database, then `gpuledger report --report showback --category
// team` – one workbook and one page per team plus a summary; each team's total equals rpt_by_category's to the cent,
// the exact amounts of the summary add to the account's cost, the unallocated cost is its own line, and no team's
// files name another team's resources (every sheet cell and the page text are read). Then with a config of our own
// (the example's rules and budgets, SMTP on 127.0.0.1): one email per team with recipients, each with only its files.
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE_CONFIG } from '../../src/config/demo-database.ts';
import { unitText } from '../../src/model/index.ts';
import { gpuledger } from '../helpers/cli.ts';
import { readHtmlTables } from '../helpers/html-read.ts';
import { chromiumAvailable, launchBrowser } from '../helpers/browser.ts';
import { layoutProblems } from '../helpers/layout-check.ts';
import { flatten, parseMime, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { readWorkbook, sheet } from '../helpers/workbook-read.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const TEAMS = ['imaging', 'inference', 'research'];
const SHOTS = fileURLToPath(new URL('../../docs/screenshots', import.meta.url));
const VIEWPORTS = [
  { name: 'light', width: 1400, height: 900, colorScheme: 'light' },
  { name: 'dark', width: 1400, height: 900, colorScheme: 'dark' },
  { name: 'phone', width: 390, height: 844, colorScheme: 'light' },
] as const;

function micros(decimal: string): bigint {
  const [whole, frac = ''] = decimal.split('.');
  const sign = whole!.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole!.replace('-', '')) * 1_000_000n + BigInt((frac + '000000').slice(0, 6)));
}

/** Every cell's text of every sheet. */
function cellTexts(wb: ExcelJS.Workbook): string[] {
  const out: string[] = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => out.push(String(cell.text ?? '')))));
  return out;
}

/** The page as a reader sees it: markup, style and script removed, entities decoded. */
function pageText(page: string): string {
  return page
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[e]!);
}

/** A resource name as a whole word of a text (sandbox-02 is not in sandbox-021). */
function mentions(text: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`).test(text);
}

describe('showback per team on the demo', () => {
  const demo = suiteFixture(async () => {
    const tmp = tempDir('gpuledger-showback-');
    const started = await gpuledger(['run', '--demo'], { RUNPOD_API_KEY: '', GPULEDGER_DB: '' }, { cwd: tmp.dir });
    if (started.code !== 0) throw new Error(`run --demo failed: ${started.stderr}`);
    const db = join(tmp.dir, 'data', 'demo.duckdb');
    const query = async <T>(sql: string, asOf?: string): Promise<T[]> => {
      // as the reader of the README runs it in that folder: on the demo database, with the demo's allocation rules
      const r = await gpuledger(['query', '--format', 'json', ...(asOf ? ['--as-of', asOf] : []), sql], {}, { cwd: tmp.dir });
      if (r.code !== 0) throw new Error(r.stderr);
      if (!r.stderr.includes('using the demo database')) throw new Error(`not the demo: ${r.stderr}`);
      return JSON.parse(r.stdout) as T[];
    };
    const report = await gpuledger(['report', '--report', 'showback', '--category', 'team', '--out-dir', 'showback'], { GPULEDGER_DB: '' }, { cwd: tmp.dir });
    return { tmp, db, query, report, close: () => tmp.cleanup() };
  }, 300_000);

  it('writes one workbook and one page per team and one summary, paths on stdout', () => {
    expect(demo.report.stderr).not.toMatch(/\berror\b/);
    expect(demo.report.code).toBe(0);
    const files = readdirSync(join(demo.tmp.dir, 'showback')).filter((f) => !f.startsWith('.')).sort();
    const month = /gpuledger-showback-summary-(\d{4}-\d{2})\.xlsx/.exec(files.join(' '))![1];
    const expected = [...TEAMS, 'summary'].flatMap((t) => [`gpuledger-showback-${t}-${month}.html`, `gpuledger-showback-${t}-${month}.xlsx`]).sort();
    expect(files).toEqual(expected);
    expect(demo.report.stdout.trim().split('\n').map((l) => l.split('/').pop()).sort()).toEqual(expected);
  });

  it("gives each team the total rpt_by_category gives it, to the cent, and the summary's amounts add to the account's cost exactly", async () => {
    const dir = join(demo.tmp.dir, 'showback');
    const summaryBook = readdirSync(dir).find((f) => /summary.*\.xlsx$/.test(f))!;
    const month = /(\d{4}-\d{2})\.xlsx$/.exec(summaryBook)![1]!;
    const end = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 1) - 1000).toISOString();
    const byCategory = await demo.query<{ value: string; month_to_date: string }>(`select value, month_to_date::varchar as month_to_date from rpt_by_category where category = 'team'`, end);
    const [account] = await demo.query<{ total: string }>(`select sum(amount)::varchar as total from cost_daily where strftime(day, '%Y-%m') = '${month}'`);

    // the page's exact values (data-v) of the summary's By value table
    const page = readFileSync(join(dir, summaryBook.replace('.xlsx', '.html')), 'utf8');
    const table = [...readHtmlTables(page).values()].find((t) => t.fields.includes('share_pct'))!;
    const col = (f: string) => table.fields.indexOf(f);
    const rows = table.rows.map((r) => ({ value: r[col('value')]!, unallocated: r[col('is_unallocated')], amount: r[col('amount')]!, share: Number(r[col('share_pct')]) }));
    expect(rows.map((r) => r.value).sort()).toEqual([...TEAMS, 'unallocated'].sort());
    for (const r of rows) {
      const expected = byCategory.find((b) => b.value === r.value)?.month_to_date ?? '0';
      expect(micros(r.amount), r.value).toBe(micros(expected));
    }
    // exact: the amounts add to the account's cost of the month to the micro-dollar, so to the cent
    expect(rows.reduce((s, r) => s + micros(r.amount), 0n)).toBe(micros(account!.total));
    // shown rounded (4 decimals), the shares add to 100 % within their rounding
    expect(Math.abs(rows.reduce((s, r) => s + r.share, 0) - 100)).toBeLessThanOrEqual(0.0001 * rows.length);
    // the unallocated cost is its own line, first of the Summary's Shares and named as such
    expect(rows.find((r) => r.value === 'unallocated')?.unallocated).toBe('true');
    const wb = await readWorkbook(join(dir, summaryBook));
    const summaryCells = cellTexts(wb);
    expect(summaryCells).toContain('unallocated (no rule matched)');
    expect(summaryCells.some((t) => t.includes('"match":{"resource":'))).toBe(true);

    // each team's own workbook: its Summary's Total is the same figure
    for (const team of TEAMS) {
      const own = await readWorkbook(join(dir, `gpuledger-showback-${team}-${month}.xlsx`));
      const ws = sheet(own, 'Summary');
      let found: number | undefined;
      ws.eachRow((row) => {
        if (row.getCell(1).text === 'Total') found = Number(row.getCell(2).value);
      });
      const expected = byCategory.find((b) => b.value === team)!.month_to_date;
      expect(Math.round(found! * 100), team).toBe(Number(micros(expected) / 10_000n) + (micros(expected) % 10_000n >= 5_000n ? 1 : 0));
    }
  });

  it("never shows a team another team's resources, in any sheet cell or in the page text", async () => {
    const dir = join(demo.tmp.dir, 'showback');
    const owned = await demo.query<{ value: string; name: string }>(
      `select distinct value, coalesce(resource_name, resource_id) as name from rpt_showback where category = 'team' and split_from is null`,
    );
    const month = /(\d{4}-\d{2})\.xlsx$/.exec(readdirSync(dir).find((f) => f.endsWith('.xlsx'))!)![1];
    for (const team of TEAMS) {
      const mine = new Set(owned.filter((o) => o.value === team).map((o) => o.name));
      const others = [...new Set(owned.filter((o) => o.value !== team && !mine.has(o.name)).map((o) => o.name))];
      expect(others.length, team).toBeGreaterThan(0);
      const cells = cellTexts(await readWorkbook(join(dir, `gpuledger-showback-${team}-${month}.xlsx`))).join('\n');
      const page = pageText(readFileSync(join(dir, `gpuledger-showback-${team}-${month}.html`), 'utf8'));
      // the page lists its own resources (the check would pass on an empty page otherwise)
      expect([...mine].some((n) => mentions(page, n)), team).toBe(true);
      for (const name of others) {
        expect(mentions(cells, name), `${team}'s workbook names ${name}`).toBe(false);
        expect(mentions(page, name), `${team}'s page names ${name}`).toBe(false);
      }
    }
  });

  it.skipIf(!chromiumAvailable)("lays out a team's page and the summary's in Chromium at 1,400 px light and dark and 390 px without overflow", async () => {
    const dir = join(demo.tmp.dir, 'showback');
    const pages = readdirSync(dir).filter((f) => /-(imaging|summary)-.*\.html$/.test(f));
    expect(pages).toHaveLength(2);
    const browser = await launchBrowser();
    try {
      for (const vp of VIEWPORTS) {
        const context = await browser.newContext({ colorScheme: vp.colorScheme, viewport: { width: vp.width, height: vp.height } });
        try {
          const page = await context.newPage();
          for (const file of pages) {
            await page.goto(pathToFileURL(join(dir, file)).href);
            await page.evaluate('document.fonts.ready.then(() => true)');
            expect(await layoutProblems(page), `${file} at ${vp.name}`).toEqual([]);
            // only a screen the check passed becomes the README's picture: its first screenful
            await page.screenshot({ path: join(SHOTS, `showback-${file.includes('-summary-') ? 'summary' : 'team'}-${vp.name}.png`) });
          }
        } finally {
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 120_000);

  describe('emailed', () => {
    let smtp: TestSmtp;
    afterAll(async () => smtp?.close());

    it('sends one email per team with recipients, each with only its own files and the summary\'s figure, and says which team was not emailed', async () => {
      smtp = await startSmtp();
      const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8'));
      // a database of its own: the demo database is never emailed (demo-database.ts)
      const db = join(demo.tmp.dir, 'showback.duckdb');
      copyFileSync(demo.db, db);
      const config = {
        ...example,
        database: db,
        accounts: [{ name: 'demo', apiKeyEnv: 'GPULEDGER_DEMO_KEY', simulated: true }],
        smtp: { host: '127.0.0.1', port: smtp.port, from: 'gpuledger <finops@example.com>' },
        export: {},
        reports: {
          ...example.reports,
          attachHtml: true,
          delivery: { showback: { recipients: ['finance@example.com'], recipientsByValue: { imaging: ['imaging-lead@example.com'], inference: ['inference-lead@example.com'] } } },
        },
      };
      const configPath = join(demo.tmp.dir, 'showback.config.json');
      writeFileSync(configPath, JSON.stringify(config));
      const r = await gpuledger(['report', '--report', 'showback', '--category', 'team', '--email', '--out-dir', 'mailed'], { GPULEDGER_CONFIG: configPath, GPULEDGER_DB: '' }, { cwd: demo.tmp.dir });
      expect(r.stderr).not.toMatch(/\berror\b/);
      expect(r.code).toBe(0);
      expect(r.stderr.split('\n').filter((l) => l.includes('not emailed'))).toEqual([expect.stringContaining("team 'research'")]);

      expect(smtp.received.map((m) => m.to.join(',')).sort()).toEqual(['finance@example.com', 'imaging-lead@example.com', 'inference-lead@example.com']);
      const figures = await demo.query<{ value: string; amount: string }>(
        `select value, sum(amount)::varchar as amount from rpt_showback where category = 'team' and strftime(day, '%Y-%m') = '${/(\d{4}-\d{2})/.exec(r.stdout)![1]}' group by value`,
      );
      for (const mail of smtp.received) {
        const parts = flatten(parseMime(mail.raw));
        const files = parts.map((p) => /filename="?([^";]+)"?/.exec(p.headers['content-disposition'] ?? '')?.[1]).filter((f): f is string => f !== undefined && !f.endsWith('.png'));
        const who = mail.to[0]!.startsWith('finance') ? 'summary' : mail.to[0]!.split('-')[0]!;
        expect(files.length, who).toBeGreaterThan(0);
        for (const f of files) expect(f, who).toMatch(new RegExp(`^gpuledger-showback-${who}-`));
        if (who === 'summary') continue;
        const text = parts.find((p) => (p.contentType).startsWith('text/plain'))!.body.toString('utf8');
        const amount = figures.find((f) => f.value === who)!.amount;
        expect(text, who).toContain(`Total: ${unitText(amount, 'usd', { micros: true })}`);
      }
    }, 180_000);
  });
});
