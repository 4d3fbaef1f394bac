// The cost families and their labels are said once, in src/model/cost-families.ts: no SQL file or shipped report
// definition may name a family the model does not have, and a definition that heads a family's column itself must use
// the model's label (a definition that gives no header gets it from the model).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COST_FAMILIES, FAMILIES, isCostFamily } from '../../src/model/index.ts';
import { DuckDBTypeId } from '@duckdb/node-api';
import { columnHeading } from '../../src/report/cells/index.ts';
import { stackedBarsData } from '../../src/report/charts/build-chart.ts';
import { listReportFiles } from '../../src/report/definition/index.ts';
import { parseReportDefinition } from '../../src/report/definition/load.ts';
import { SQL_DIR } from '../../src/transform/sql-files.ts';

// `family = 'x'`, `family <> 'x'`, `family in ('x', 'y')` (any table alias): the family literals a query compares with
const COMPARED = /\bfamily\s*(?:=|<>|!=)\s*'([^']*)'|\bfamily\s+(?:not\s+)?in\s*\(([^)]*)\)/gi;

/** The family names a SQL text compares `family` with that the model does not have ('all' is a forecast's total). */
function unknownFamilies(sql: string): string[] {
  const code = sql.replace(/--[^\n]*/g, '');
  const named: string[] = [];
  for (const m of code.matchAll(COMPARED)) {
    if (m[1] !== undefined) named.push(m[1]);
    else named.push(...[...m[2]!.matchAll(/'([^']*)'/g)].map((x) => x[1]!));
  }
  return named.filter((f) => f !== 'all' && !isCostFamily(f));
}

/** Everywhere a definition names a family the model does not have or heads a family's column with other words. */
function definitionFamilyProblems(node: unknown, where: string): string[] {
  if (Array.isArray(node)) return node.flatMap((x, i) => definitionFamilyProblems(x, `${where}.${i + 1}`));
  if (node === null || typeof node !== 'object') return [];
  const problems: string[] = [];
  const o = node as Record<string, unknown>;
  if (typeof o.field === 'string' && isCostFamily(o.field) && o.header !== undefined && o.header !== COST_FAMILIES[o.field].label) {
    problems.push(`${where}: the ${o.field} column is headed '${String(o.header)}' where the model calls it '${COST_FAMILIES[o.field].label}' (leave header out to use the model's)`);
  }
  if (typeof o.sql === 'string') {
    for (const f of unknownFamilies(o.sql)) problems.push(`${where}.sql: names a family '${f}' the model does not have (${FAMILIES.join(', ')})`);
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'file') problems.push(...definitionFamilyProblems(v, `${where}.${k}`));
  return problems;
}

function sqlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sqlFiles(join(dir, e.name)) : e.name.endsWith('.sql') ? [join(dir, e.name)] : [],
  );
}

describe('cost families named only as the model names them', () => {
  it('heads a family column with the model label when a definition gives none', () => {
    for (const f of FAMILIES) expect(columnHeading(f)).toBe(COST_FAMILIES[f].label);
    expect(columnHeading('storage')).toBe('Network Volumes');
    expect(columnHeading('gpu_type_name')).toBe('GPU type name');
  });

  it('stacks a chart by family in the model order, each series under the model label', () => {
    const columns = [
      { name: 'day', typeId: DuckDBTypeId.DATE },
      { name: 'family', typeId: DuckDBTypeId.VARCHAR },
      { name: 'amount', typeId: DuckDBTypeId.DECIMAL },
    ];
    const rows = [...FAMILIES].reverse().map((f) => ['2026-10-01', f, '1.000000']);
    const data = stackedBarsData({ id: 'c', kind: 'stacked_bars', title: 't', x: 'day', series: 'family', value: 'amount' } as never, { columns, rows }, 'test');
    expect(data.series.map((s) => s.label)).toEqual(FAMILIES.map((f) => COST_FAMILIES[f].label));
  });

  it('finds no SQL file comparing family with a name the model does not have', () => {
    const files = sqlFiles(SQL_DIR);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) => unknownFamilies(readFileSync(file, 'utf8')).map((f) => `${relative(SQL_DIR, file)}: '${f}'`));
    expect(found).toEqual([]);
  });

  it('finds no shipped report definition naming a family otherwise than the model', () => {
    const files = [...listReportFiles(undefined).values()];
    expect(files.length).toBeGreaterThan(1);
    const problems = files.flatMap((file) => {
      const def = parseReportDefinition(readFileSync(file, 'utf8'), file);
      return definitionFamilyProblems(def, relative(join(SQL_DIR, '..'), file));
    });
    expect(problems).toEqual([]);
  });

  it('names a definition that retypes a family label or a view or query that names a family the model lacks', () => {
    const yaml = `title: A bad report
defaultPeriod: month_to_date
sheets:
  - name: Daily spend
    sql: select * from rpt_spend_daily_by_family where day > '2026-01-01'
    columns:
      - { field: day }
      - { field: storage, header: Storage }
      - { field: cluster }
  - name: Volumes
    sql: select * from cost_daily where family in ('pod', 'network_volume')
`;
    const def = parseReportDefinition(yaml, '/tmp/bad.yaml');
    expect(definitionFamilyProblems(def, 'bad')).toEqual([
      `bad.sheets.1.columns.2: the storage column is headed 'Storage' where the model calls it 'Network Volumes' (leave header out to use the model's)`,
      `bad.sheets.2.sql: names a family 'network_volume' the model does not have (pod, serverless, storage, public_endpoint, cluster)`,
    ]);
    expect(unknownFamilies(`select * from cost_daily d where d.family = 'volume' -- not 'pods'`)).toEqual(['volume']);
    expect(unknownFamilies(`select * from rpt_month_forecast where family = 'all'`)).toEqual([]);
  });
});
