// What a summary sheet says, read once and rendered twice: the workbook's front sheet (workbook/summary-sheet.ts) and
// the HTML report's first section (html/summary-section.ts) are drawn from this one model, so both show the same
// figures, the same small tables and the same charts. Blocks up to the first figures (and the figures blocks right
// after them) go above the charts, the rest below – an analyst's front page read top-down.
import type { Store } from '../store/database.ts';
import { hasView } from '../store/has-view.ts';
import { ReportDefinitionError, type ColumnDefinition, type SummarySheetDefinition } from './definition/index.ts';
import { buildChart, type ChartFont, type RenderedChart } from './charts/index.ts';
import { queryAll, type QueryParameters, type QueryResult } from './query.ts';
import { columnHeading, inferFormat, type ColumnFormat } from './cells/index.ts';
import { valueText } from '../present/index.ts';

export interface SummaryFigure {
  label: string;
  /** The exact value as DuckDB returned it (DECIMAL as a string). */
  value: unknown;
  format: ColumnFormat;
  text: string;
  note: string | undefined;
  /** It is cost: a rise is bad (red), a fall good (green). */
  upIsBad: boolean;
}

export interface SummaryTableColumn {
  field: string;
  header: string;
  format: ColumnFormat;
  upIsBad: boolean;
  linksTo?: string;
}

export type SummaryBlock =
  | { kind: 'figures'; title: string; figures: SummaryFigure[] }
  | { kind: 'table'; title: string; columns: SummaryTableColumn[]; rows: unknown[][]; more: number; emptyText: string };

export interface SummaryContent {
  name: string;
  before: SummaryBlock[];
  charts: RenderedChart[];
  after: SummaryBlock[];
  figures: SummaryFigure[];
  queries: { what: string; sql: string }[];
}

function noteText(template: string, result: QueryResult, row: unknown[], timeZone: string): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, field: string) => {
    const i = result.columns.findIndex((c) => c.name === field);
    if (i < 0) return whole;
    return valueText(row[i], inferFormat(result.columns[i]!.typeId, field), timeZone, { signed: /change/.test(field) });
  });
}

function tableBlock(title: string, cols: ColumnDefinition[] | undefined, result: QueryResult, limit: number, emptyText: string, where: string): SummaryBlock {
  const defs: ColumnDefinition[] = cols ?? result.columns.map((c) => ({ field: c.name, dataBar: false, upIsBad: false }));
  const resolved = defs.map((d, i) => {
    const at = result.columns.findIndex((c) => c.name === d.field);
    if (at < 0) throw new ReportDefinitionError(`${where}.columns.${i + 1}.field: the query has no column '${d.field}' (it has ${result.columns.map((c) => c.name).join(', ')})`);
    return { at, column: { field: d.field, header: d.header ?? columnHeading(d.field), format: d.unit ?? inferFormat(result.columns[at]!.typeId, d.field), upIsBad: d.upIsBad, linksTo: d.linksTo } };
  });
  const rows = result.rows.slice(0, limit).map((row) => resolved.map((c) => row[c.at] ?? null));
  return { kind: 'table', title, columns: resolved.map((c) => c.column), rows, more: Math.max(0, result.rows.length - limit), emptyText };
}

export async function readSummary(
  store: Store,
  def: SummarySheetDefinition,
  ctx: { params: QueryParameters; timeZone: string; font: ChartFont; where: string },
): Promise<SummaryContent> {
  const figures: SummaryFigure[] = [];
  const queries: SummaryContent['queries'] = [];
  const before: SummaryBlock[] = [];
  const after: SummaryBlock[] = [];
  let seenFigures = false;
  let lastWasFigures = false;
  let placeAfter = false;
  for (const [j, block] of def.blocks.entries()) {
    const where = `${ctx.where}.blocks.${j + 1}`;
    if (block.requiresView !== undefined && !(await hasView(store, block.requiresView))) {
      queries.push({ what: `${block.title} – not shown: this database has no ${block.requiresView} yet`, sql: block.sql });
      continue;
    }
    const result = await queryAll(store, block.sql, ctx.params, where);
    queries.push({ what: block.title, sql: block.sql });
    if (seenFigures && !(block.kind === 'figures' && lastWasFigures)) placeAfter = true;
    const target = placeAfter ? after : before;
    lastWasFigures = block.kind === 'figures';
    if (block.kind === 'table') {
      target.push(tableBlock(block.title, block.columns, result, block.limit, block.emptyText, where));
      continue;
    }
    seenFigures = true;
    const row = result.rows[0] ?? [];
    const shown: SummaryFigure[] = [];
    block.items.forEach((item, k) => {
      const at = result.columns.findIndex((c) => c.name === item.field);
      if (at < 0) throw new ReportDefinitionError(`${where}.items.${k}.field: the query has no column '${item.field}' (it has ${result.columns.map((c) => c.name).join(', ')})`);
      const value = row[at] ?? null;
      if (value === null && item.hideIfNull) return;
      const format = item.unit ?? inferFormat(result.columns[at]!.typeId, item.field);
      const note = item.note === undefined ? undefined : noteText(item.note, result, row, ctx.timeZone);
      shown.push({ label: item.label, value, format, text: valueText(value, format, ctx.timeZone, { signed: item.upIsBad }), note, upIsBad: item.upIsBad });
    });
    figures.push(...shown);
    target.push({ kind: 'figures', title: block.title, figures: shown });
  }

  const charts: RenderedChart[] = [];
  for (const [j, c] of def.charts.entries()) {
    if (c.requiresView !== undefined && !(await hasView(store, c.requiresView))) {
      queries.push({ what: `${c.title} – not drawn: this database has no ${c.requiresView} yet`, sql: c.sql });
      continue;
    }
    charts.push(await buildChart(store, c, ctx.params, ctx.font, `${ctx.where}.charts.${j + 1}`));
    queries.push({ what: `chart: ${c.title}`, sql: c.sql });
  }
  return { name: def.name, before, charts, after, figures, queries };
}
