// Units said once, tested where a person reads them (issue 25 §1): both shipped reports rendered on a simulated
// account synced as a user would, every visible column of every table read back from the HTML page's text and from
// the workbook's cells as their number formats show them, and each compared with the value it stands for in the
// unit src/model/units.ts declares. The figures a view holds are compared with the view itself: the spend limit read
// 0.5 % where rpt_runway says 47.5.
import { NEW_ROW_TEXT } from '../../src/present/new-row.ts';
import { dataTable } from '../../src/present/index.ts';
import type ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateBudget } from '../../src/alert/rules/budget.ts';
import { budgetRuleSchema } from '../../src/config/alerts.ts';
import { declaredUnit, UNITS, type Unit } from '../../src/model/index.ts';
import { buildEmail } from '../../src/report/delivery/email-content.ts';
import { loadReportDefinition, type ReportDefinition } from '../../src/report/definition/index.ts';
import { sectionId } from '../../src/report/html/index.ts';
import { renderReportFormats, type RenderedFormats } from '../../src/report/index.ts';
import { columnsOf } from '../../src/query/column-kinds.ts';
import { sandboxTable } from '../../src/serve/pages.ts';
import type { Store } from '../../src/store/database.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { blockTable, excelText, htmlFigures, htmlSection, misreads, sectionTable, type ShownTable } from '../helpers/surface-read.ts';
import { readWorkbook, sheet } from '../helpers/workbook-read.ts';
import { syncedStore } from '../helpers/synced-fixture.ts';

const BUDGET = '25000';

interface Rendered {
  def: ReportDefinition;
  out: RenderedFormats;
  html: string;
  wb: ExcelJS.Workbook;
}

/** The xlsx rows of a table: under the header row whose cells are `headers`, until an empty or note row. */
function xlsxRows(ws: ExcelJS.Worksheet, headers: string[], max: number): ExcelJS.Cell[][] {
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    if (!headers.every((h, i) => row.getCell(i + 1).value === h)) continue;
    const out: ExcelJS.Cell[][] = [];
    for (let k = r + 1; k <= ws.rowCount && out.length < max; k++) {
      const cells = headers.map((_, i) => ws.getRow(k).getCell(i + 1));
      if (cells.every((c) => c.value === null || c.value === undefined)) break;
      out.push(cells);
    }
    return out;
  }
  throw new Error(`no header row ${headers.join(' | ')} in ${ws.name}`);
}

/** What is wrong with one shown cell – its HTML text and its workbook cell – against its exact value and unit. */
function cellProblems(where: string, unit: Unit, exact: string, text: string, cell: ExcelJS.Cell | undefined): string[] {
  const problems: string[] = [];
  const kind = UNITS[unit].kind;
  const v = cell?.value ?? null;
  if (exact === '') {
    // a percent change with nothing before reads "new" (src/present/new-row.ts): the row's change is its whole amount
    const shown = unit === 'percent' && text === NEW_ROW_TEXT ? NEW_ROW_TEXT : '–';
    if (text !== shown) problems.push(`${where}: NULL shows '${text}' in the page`);
    if (cell && v !== null && v !== '' && !(shown === NEW_ROW_TEXT && v === NEW_ROW_TEXT)) problems.push(`${where}: NULL holds ${JSON.stringify(v)} in the workbook`);
    return problems;
  }
  if (kind === 'number') {
    const page = misreads(text, exact, unit);
    if (page) problems.push(`${where} (page): ${page}`);
    if (cell) {
      if (typeof v !== 'number') problems.push(`${where} (workbook): holds ${JSON.stringify(v)}, not a number`);
      else {
        const book = misreads(excelText(v, cell.numFmt), exact, unit);
        if (book) problems.push(`${where} (workbook, ${cell.numFmt}): ${book}`);
      }
    }
  } else if (kind === 'date') {
    if (text !== exact.slice(0, 10)) problems.push(`${where} (page): '${text}' for the day ${exact}`);
    if (cell && !(v instanceof Date && v.toISOString().slice(0, 10) === exact.slice(0, 10) && cell.numFmt === 'yyyy-mm-dd')) {
      problems.push(`${where} (workbook): ${JSON.stringify(v)} ${cell.numFmt} for the day ${exact}`);
    }
  } else if (kind === 'datetime') {
    // UTC clock: the wall clock is the instant; a naive timestamp is shown as it is
    const minute = exact.slice(0, 16);
    if (!text.startsWith(minute)) problems.push(`${where} (page): '${text}' for the instant ${exact}`);
    if (cell && !(v instanceof Date && v.toISOString().slice(0, 16).replace('T', ' ') === minute && cell.numFmt === 'yyyy-mm-dd hh:mm')) {
      problems.push(`${where} (workbook): ${JSON.stringify(v)} ${cell.numFmt} for the instant ${exact}`);
    }
  } else if (kind === 'boolean') {
    const shown = exact === 'true' ? 'Yes' : exact === 'false' ? 'No' : exact;
    if (text !== shown) problems.push(`${where} (page): '${text}' for ${exact}`);
    if (cell && v !== shown) problems.push(`${where} (workbook): ${JSON.stringify(v)} for ${exact}`);
  } else {
    if (text !== exact) problems.push(`${where} (page): '${text}' for '${exact}'`);
    if (cell && v !== exact) problems.push(`${where} (workbook): ${JSON.stringify(v)} for '${exact}'`);
  }
  return problems;
}

/** Every cell of one table: page text and workbook cell against the exact value, in the column's declared unit. */
function tableProblems(where: string, columns: { field: string; unit?: Unit | undefined }[], page: ShownTable, book: ExcelJS.Cell[][]): string[] {
  const problems: string[] = [];
  const units = columns.map((c) => c.unit ?? declaredUnit(c.field));
  columns.forEach((c, i) => {
    if (units[i] === undefined) problems.push(`${where}: column ${c.field} has no declared unit`);
  });
  if (page.fields.join() !== columns.map((c) => c.field).join()) problems.push(`${where}: the page shows ${page.fields.join()}`);
  if (book.length < page.rows.length) problems.push(`${where}: the workbook has ${book.length} rows, the page ${page.rows.length}`);
  // rows in the same order in both (the same query); ties of the order may swap, so a row is matched by its exact values
  const byKey = new Map(book.map((cells) => [cells.map((c) => cellKey(c.value)).join('|'), cells]));
  page.rows.forEach((row, r) => {
    const key = row.map((c, i) => keyOfExact(c.exact, units[i])).join('|');
    const cells = book[r] && book[r].map((c) => cellKey(c.value)).join('|') === key ? book[r] : (byKey.get(key) ?? book[r]);
    row.forEach((c, i) => {
      if (units[i] !== undefined) problems.push(...cellProblems(`${where} row ${r + 1} ${columns[i]!.field}`, units[i], c.exact, c.text, cells?.[i]));
    });
  });
  return problems;
}

function cellKey(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 16);
  if (typeof v === 'number') return v.toFixed(4);
  return String(v);
}

function keyOfExact(exact: string, unit: Unit | undefined): string {
  if (exact === '' || unit === undefined) return '';
  const spec = UNITS[unit];
  if (spec.kind === 'number') return (Number(exact) / ('divisor' in spec ? spec.divisor : 1)).toFixed(4);
  if (spec.kind === 'date') return `${exact.slice(0, 10)}T00:00`;
  if (spec.kind === 'datetime') return exact.slice(0, 16).replace(' ', 'T');
  if (spec.kind === 'boolean') return exact === 'true' ? 'Yes' : 'No';
  return exact;
}

describe('every visible column in its declared unit, in the page and in the workbook', () => {
  let dir: string;
  let store: Store;
  const reports = new Map<string, Rendered>();
  let noBudgetHtml: string;

  beforeAll(async () => {
    ({ dir, store } = await syncedStore('gpuledger-units-'));
    const config = testConfig({ timeZone: 'UTC', reports: { budget: { monthly: BUDGET } } });
    for (const report of ['nightly', 'finance-monthly']) {
      const out = await renderReportFormats({ store, config, report, outDir: join(dir, report), formats: ['xlsx', 'html'] });
      reports.set(report, { def: loadReportDefinition(report, undefined), out, html: readFileSync(out.html!.path, 'utf8'), wb: await readWorkbook(out.workbook!.path) });
    }
    const plain = await renderReportFormats({ store, config: testConfig({ timeZone: 'UTC' }), report: 'nightly', outDir: join(dir, 'no-budget'), formats: ['html'] });
    noBudgetHtml = readFileSync(plain.html!.path, 'utf8');
  }, 180_000);
  afterAll(async () => {
    await store?.close();
  });

  it.each(['nightly', 'finance-monthly'])('%s: every table cell reads as its exact value in the declared unit', (name) => {
    const { def, html, wb } = reports.get(name)!;
    const problems: string[] = [];
    let cells = 0;
    for (const s of def.sheets) {
      const section = htmlSection(html, sectionId(s.name));
      if (s.kind === 'table') {
        const page = sectionTable(section);
        const columns = s.columns!;
        problems.push(...tableProblems(`${name} ${s.name}`, columns, page, xlsxRows(sheet(wb, s.name), page.headers, page.rows.length)));
        cells += page.rows.length * columns.length;
        continue;
      }
      for (const b of s.blocks) {
        if (b.kind !== 'table') continue;
        const page = blockTable(section, b.title);
        const book = page.rows.length > 0 ? xlsxRows(sheet(wb, s.name), page.headers, page.rows.length) : [];
        problems.push(...tableProblems(`${name} ${s.name} / ${b.title}`, b.columns!, page, book));
        cells += page.rows.length * b.columns!.length;
      }
    }
    expect(problems.slice(0, 30)).toEqual([]);
    expect(cells).toBeGreaterThan(name === 'nightly' ? 1000 : 300);
  });

  it.each(['nightly', 'finance-monthly'])('%s: every key figure reads as its exact value in the declared unit, in the page, the workbook and the email', (name) => {
    const { def, html, wb, out } = reports.get(name)!;
    const figures = htmlFigures(html);
    const email = buildEmail(out.workbook!, 'attached').text;
    const summary = sheet(wb, 'Summary');
    const problems: string[] = [];
    for (const s of def.sheets) {
      if (s.kind !== 'summary') continue;
      for (const b of s.blocks) {
        if (b.kind !== 'figures') continue;
        for (const item of b.items) {
          const f = figures.find((x) => x.label === item.label);
          if (!f) continue; // a block whose view this database lacks, or a figure hidden when NULL
          const unit = item.unit ?? declaredUnit(item.field);
          if (unit === undefined) {
            problems.push(`${name} figure ${item.label}: ${item.field} has no declared unit`);
            continue;
          }
          let cell: ExcelJS.Cell | undefined;
          summary.eachRow((row) => {
            if (row.getCell(1).value === item.label) cell = row.getCell(2);
          });
          problems.push(...cellProblems(`${name} figure ${item.label}`, unit, f.exact, f.text, cell));
          if (!email.includes(`${item.label}: ${f.text}`)) problems.push(`${name} figure ${item.label}: the email does not say '${f.text}'`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(figures.length).toBeGreaterThanOrEqual(name === 'nightly' ? 7 : 4);
  });

  it('shows the spend limit, the runway and the storage-only runway of rpt_runway in their units', async () => {
    const { html, wb } = reports.get('nightly')!;
    const view = (await store.all<{ account: string; spend_limit_used_pct: string; runway_hours: string; storage_runway_hours: string; spend_per_hour: string }>(
      'select account, spend_limit_used_pct::varchar as spend_limit_used_pct, runway_hours::varchar as runway_hours, storage_runway_hours::varchar as storage_runway_hours, spend_per_hour::varchar as spend_per_hour from rpt_runway',
    ))[0]!;
    expect(Number(view.spend_limit_used_pct)).toBeGreaterThan(1); // a percent 0–100: the case that read "0.5 %"
    const page = blockTable(htmlSection(html, sectionId('Summary')), 'Prepaid balance and runway');
    const [book] = xlsxRows(sheet(wb, 'Summary'), page.headers, 1);
    const at = (header: string) => page.headers.indexOf(header);
    const shown = (header: string) => ({ text: page.rows[0]![at(header)]!.text, cell: book![at(header)]! });
    const checks: [string, string, Unit][] = [
      ['Spend limit used', view.spend_limit_used_pct, 'percent'],
      ['Runway', view.runway_hours, 'hours'],
      ['Storage-only runway', view.storage_runway_hours, 'days_from_hours'],
      ['Spend per hour', view.spend_per_hour, 'usd_per_hour'],
    ];
    const problems = checks.flatMap(([header, exact, unit]) => (at(header) < 0 ? [`no column ${header}`] : cellProblems(header, unit, exact, shown(header).text, shown(header).cell)));
    expect(problems).toEqual([]);
    expect(shown('Spend limit used').text).toBe(`${Number(view.spend_limit_used_pct).toFixed(1)} %`);
    expect(excelText(shown('Spend limit used').cell.value as number, shown('Spend limit used').cell.numFmt)).toBe(`${Number(view.spend_limit_used_pct).toFixed(1)} %`);
    expect(shown('Storage-only runway').text).toBe(`${Math.round(Number(view.storage_runway_hours) / 24).toLocaleString('en-US')} days`);
  });

  it('shows rpt_runway on serve\'s view page in the same units', async () => {
    const all = await store.connection.runAndReadAll('select * from rpt_runway order by all');
    // as serve's view page draws it: the sandbox's columns in present's table
    const served = sandboxTable({ columns: columnsOf(all.columnNames(), all.columnTypes()), rows: all.getRowsJson() });
    const page = sectionTable(dataTable({ ...served, label: 'rpt_runway', timeZone: 'UTC' }).text);
    const problems = page.fields.flatMap((field, i) => {
      const unit = declaredUnit(field);
      const c = page.rows[0]![i]!;
      return unit === undefined || UNITS[unit].kind !== 'number' ? [] : cellProblems(`/view/rpt_runway ${field}`, unit, c.exact, c.text, undefined);
    });
    expect(problems).toEqual([]);
    const text = (f: string) => page.rows[0]![page.fields.indexOf(f)]!.text;
    expect(text('spend_limit_used_pct')).toMatch(/^\d+\.\d %$/);
    expect(text('storage_runway_hours')).toMatch(/^[\d,]+ days$/);
  });

  it('shows each unit cost of rpt_unit_cost_daily in dollars with four decimals, under headings of their own', async () => {
    const { html, wb } = reports.get('nightly')!;
    const page = blockTable(htmlSection(html, sectionId('Unit costs')), 'Unit costs');
    expect(new Set(page.headers).size).toBe(page.headers.length);
    expect(page.rows.length).toBeGreaterThan(3);
    const book = xlsxRows(sheet(wb, 'Unit costs'), page.headers, page.rows.length);
    const col = (f: string) => page.fields.indexOf(f);
    const problems: string[] = [];
    for (const [r, row] of page.rows.entries()) {
      const v = await store.one<{ unit_cost: string; unit_cost_7d: string | null }>(
        `select unit_cost::varchar as unit_cost, unit_cost_7d::varchar as unit_cost_7d from rpt_unit_cost_daily where account = $a and metric = $m and scope_label = $s and day = $d::date`,
        { a: row[col('account')]!.exact, m: row[col('metric')]!.exact, s: row[col('scope')]!.exact, d: row[col('day')]!.exact },
      );
      problems.push(...cellProblems(`row ${r + 1} unit_cost`, 'usd_per_unit', v!.unit_cost, row[col('unit_cost')]!.text, book[r]![col('unit_cost')]));
      if (v!.unit_cost_7d !== null) problems.push(...cellProblems(`row ${r + 1} unit_cost_7d`, 'usd_per_unit', v!.unit_cost_7d, row[col('unit_cost_7d')]!.text, book[r]![col('unit_cost_7d')]));
    }
    expect(problems).toEqual([]);
  });

  it('says what share of the budget is spent as rpt_summary_figures gives it, and names a budget in a chart title only when there is one', async () => {
    const { html } = reports.get('nightly')!;
    const v = await store.one<{ used: string }>(`select round(month_to_date * 100.0 / ${BUDGET}, 1)::varchar as used from rpt_summary_figures`);
    const budget = htmlFigures(html).find((f) => f.label === 'Monthly budget')!;
    expect(budget.text).toBe('$25,000.00');
    expect(budget.note).toMatch(new RegExp(`^${v!.used.replace('.', '\\.')} % used, forecast \\d+\\.\\d % by running resources \\+ new-work rate$`));
    const chartTitles = (page: string) => [...page.matchAll(/<figure class="chart" aria-label="([^"]*)"/g)].map((m) => m[1]!);
    expect(chartTitles(html)).toContain('Cumulative spend this month against forecast and budget');
    expect(chartTitles(noBudgetHtml)).toContain('Cumulative spend this month against forecast');
    expect(chartTitles(noBudgetHtml).filter((t) => /budget/.test(t))).toEqual([]);
    expect(htmlFigures(noBudgetHtml).map((f) => f.label)).not.toContain('Monthly budget');
  });

  it('words the budget alert’s share of the budget as the report’s figure shows it', async () => {
    const note = htmlFigures(reports.get('nightly')!.html).find((f) => f.label === 'Monthly budget')!.note!;
    const used = /^(\d+\.\d %) used/.exec(note)![1]!;
    const [alert] = await evaluateBudget(store, budgetRuleSchema.parse({ name: 'account', amount: BUDGET, thresholds: [1], on: ['actual'] }));
    expect(alert!.title).toBe(`Budget account: ${used} spent (2026-11)`);
    expect(alert!.message).toContain(`spent of a $25,000.00 monthly budget (${used}) as of`);
  });
});
