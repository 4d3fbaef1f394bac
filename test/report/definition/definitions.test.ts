import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_REPORTS_DIR, listReportFiles, loadReportDefinition, parseReportDefinition, ReportDefinitionError, sqlParameters } from '../../../src/report/definition/load.ts';
import { writeDefinition } from '../../helpers/report-fixtures.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

const minimal = (sheet: string) => `title: T\ndefaultPeriod: month_to_date\nsheets:\n${sheet}`;

describe('report definitions', () => {
  it('ships nightly, finance-monthly and showback (per team, with its summary), all valid', () => {
    const files = listReportFiles(undefined);
    expect([...files.keys()].sort()).toEqual(['finance-monthly', 'nightly', 'showback', 'showback-summary']);
    expect(loadReportDefinition('nightly', undefined).defaultPeriod).toBe('month_to_date');
    expect(loadReportDefinition('showback', undefined)).toMatchObject({ category: 'per_value', categorySummary: 'showback-summary' });
    expect(loadReportDefinition('showback-summary', undefined).category).toBe('summary');
    expect(loadReportDefinition('finance-monthly', undefined).defaultPeriod).toBe('previous_month');
  });

  it('lets a user folder add reports and override a shipped one by name', () => {
    const dir = tempDir('gpuledger-report-').dir;
    writeDefinition(dir, 'nightly', minimal('  - { name: Only, sql: select 1 as x }'));
    writeDefinition(dir, 'mine', minimal('  - { name: Mine, sql: select 1 as x }'));
    expect(loadReportDefinition('nightly', dir).sheets.map((s) => s.name)).toEqual(['Only']);
    expect(loadReportDefinition('mine', dir).file).toBe(join(dir, 'mine.yaml'));
    expect(listReportFiles(dir).get('finance-monthly')).toBe(join(BUILTIN_REPORTS_DIR, 'finance-monthly.yaml'));
  });

  it('reads a file again once its text changed, and hands out definitions that share nothing', () => {
    const dir = tempDir('gpuledger-report-').dir;
    writeDefinition(dir, 'mine', minimal('  - { name: First, sql: select 1 as x }'));
    const first = loadReportDefinition('mine', dir);
    first.sheets[0]!.name = 'Changed by a caller';
    expect(loadReportDefinition('mine', dir).sheets.map((s) => s.name)).toEqual(['First']);
    writeDefinition(dir, 'mine', minimal('  - { name: Second, sql: select 1 as x }'));
    expect(loadReportDefinition('mine', dir).sheets.map((s) => s.name)).toEqual(['Second']);
  });

  it('names the report there is none of, and the ones there are', () => {
    expect(errorOf(() => loadReportDefinition('weekly', undefined)).message).toMatch(/^no report named 'weekly'; available: finance-monthly, nightly/);
  });

  it.each([
    [minimal('  - { name: Bad, sql: select 1, columns: [{ field: x, format: money }] }'), /x\.yaml: sheets\.1\.columns\.1\.format: /],
    [minimal('  - { name: Bad, sql: select 1, view: cost }'), /x\.yaml: sheets\.1\.sql: give exactly one of sql or view/],
    [minimal('  - { name: "Bad/Name", sql: select 1 }'), /x\.yaml: sheets\.1\.name: no : \\ \/ \? \* \[ \]/],
    [minimal('  - { name: S, kind: summary, charts: [{ id: c, kind: stacked_bars, title: t, sql: select 1, x: day }] }'), /x\.yaml: sheets\.1\.charts\.1\.series: required for a stacked_bars chart/],
    [minimal('  - { name: S, sql: select 1, colums: [] }'), /x\.yaml: sheets\.1: Unrecognized key: "colums"/],
    ['title: T\nsheets: []\ndefaultPeriod: month_to_date', /x\.yaml: sheets: /],
    ['title: T\ndefaultPeriod: yesterday\nsheets: [{ name: A, sql: select 1 }]', /x\.yaml: defaultPeriod: /],
    [minimal('  - { name: A, sql: "select * from cost where day > $since" }'), /x\.yaml: sheets\.1\.sql: unknown parameter \$since \(known: \$period_start, \$period_end, \$as_of, \$budget_monthly, \$category, \$category_value\)/],
    [minimal('  - { name: A, sql: select 1 }\n  - { name: a, sql: select 2 }'), /x\.yaml: sheets\.2\.name: sheet name 'a' is used twice/],
    ['title: [unclosed', /x\.yaml: not valid YAML/],
  ])('rejects a bad definition with one line naming the file and the key (%#)', (text, message) => {
    const e = errorOf(() => parseReportDefinition(text, '/somewhere/reports/x.yaml'));
    expect(e).toBeInstanceOf(ReportDefinitionError);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('\n');
  });

  it('takes a sheet from another report as written there, retitled where asked', () => {
    const monthly = loadReportDefinition('finance-monthly', undefined);
    const nightly = loadReportDefinition('nightly', undefined);
    const waste = (d: typeof monthly) => d.sheets.find((s) => s.name === 'Waste');
    expect(waste(monthly)).toEqual(waste(nightly));
    const dir = tempDir('gpuledger-report-').dir;
    writeDefinition(dir, 'mine', minimal('  - { from: nightly, sheet: Reconciliation, name: Invoice check, title: Against the invoice }'));
    const mine = loadReportDefinition('mine', dir).sheets[0]!;
    const recon = nightly.sheets.find((s) => s.name === 'Reconciliation')!;
    expect(mine).toEqual({ ...recon, name: 'Invoice check', title: 'Against the invoice' });
  });

  it.each([
    ['  - { from: weekly, sheet: Waste }', /mine\.yaml: sheets\.1\.from: no report named 'weekly' \(available: .*finance-monthly.*nightly/],
    ['  - { from: nightly, sheet: Wastes }', /mine\.yaml: sheets\.1\.sheet: .*nightly\.yaml has no sheet 'Wastes' \(it has Summary, Unit costs, Daily spend/],
    ['  - { from: nightly, sheet: Waste, colour: red }', /mine\.yaml: sheets\.1: Unrecognized key/],
    ['  - { from: mine, sheet: A }\n  - { name: A, from: mine, sheet: A }', /mine\.yaml: sheets\.\d\.from: sheet references go in a circle/],
  ])('rejects a bad sheet reference in one line naming the key (%#)', (sheets, message) => {
    const dir = tempDir('gpuledger-report-').dir;
    writeDefinition(dir, 'mine', minimal(sheets));
    const e = errorOf(() => loadReportDefinition('mine', dir));
    expect(e).toBeInstanceOf(ReportDefinitionError);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain('\n');
  });

  it('reads JSON definitions too', () => {
    const def = parseReportDefinition(JSON.stringify({ title: 'J', defaultPeriod: 'previous_month', sheets: [{ name: 'A', view: 'cost_daily' }] }), '/r/j.json');
    expect(def).toMatchObject({ name: 'j', sheets: [{ kind: 'table', view: 'cost_daily' }] });
  });

  it('finds parameters outside string literals and comments only', () => {
    expect(sqlParameters("select '$x' as a, $period_start -- $nope\nwhere y = $period_end and z = $1").sort()).toEqual(['period_end', 'period_start']);
  });
});
