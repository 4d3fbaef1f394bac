// A report rendered per value of an allocation category (showback, issue 39 §3): the definition says `category:
// per_value`, and `gpuledger report --category team` renders it once per team – its own files, named and titled
// after the value, with $category and $category_value bound as typed values – then its `categorySummary` report once
// for the whole category ($category bound). Each rendering is a report session of its own, so every value's files
// are exactly what one `report` run would write for it alone.
import type { Config } from '../../config/schema.ts';
import type { Store } from '../../store/database.ts';
import { UsageError } from '../../util/errors.ts';
import { loadReportDefinition, type ReportDefinition, type ReportFormat } from '../definition/index.ts';
import { renderReportFormats, type RenderedFormats } from '../render-formats.ts';
import type { RenderReportOptions } from '../report-session.ts';
import { resolve } from 'node:path';

export interface CategoryRendering {
  category: string;
  values: { value: string; files: RenderedFormats }[];
  summary: RenderedFormats | undefined;
}

/** The configured categories, for the one-line errors. */
function categoryList(config: Config): string {
  const names = Object.keys(config.allocation.categories);
  return names.length === 0 ? 'none are configured: add allocation.categories to the config (docs/allocation.md)' : `configured: ${names.join(', ')}`;
}

/** --category against the definition and the config: a one-line UsageError (exit 2) before anything is rendered. */
export function checkCategoryFlag(def: Pick<ReportDefinition, 'name' | 'category'>, config: Config, category: string | undefined): void {
  if (def.category === undefined) {
    if (category !== undefined) throw new UsageError(`--category is for a report rendered per allocation value (such as showback); report '${def.name}' is not one`);
    return;
  }
  if (category === undefined) throw new UsageError(`report '${def.name}' needs --category <name>, the allocation category to report on (${categoryList(config)})`);
  if (!(category in config.allocation.categories)) throw new UsageError(`--category '${category}' is not an allocation category (${categoryList(config)})`);
}

/**
 * The values a per-value report is rendered for: every value with cost of its own in the database (rpt_showback),
 * and every value the rules or splits can give cost to – a team with nothing this period still gets its page saying
 * so – but neither the default (unallocated: the summary's own line) nor a shared value whose cost splits move away.
 */
export async function categoryValues(store: Store, config: Config, category: string): Promise<string[]> {
  const cat = config.allocation.categories[category]!;
  const rows = await store.all<{ value: string }>('select distinct value from rpt_showback where category = $1 and not is_unallocated', [category]);
  const splitAway = new Set(cat.split.map((s) => s.from));
  const named = [...cat.rules.map((r) => r.value), ...cat.split.flatMap((s) => s.to)].filter((v) => !splitAway.has(v));
  const values = new Set([...rows.map((r) => r.value), ...named]);
  values.delete(cat.default);
  return [...values].sort((a, b) => a.localeCompare(b));
}

/** A value as a file-name part: lowercase letters, digits and dashes; made unique among its siblings. */
export function valueSuffixes(values: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const v of values) {
    const base = v.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'value';
    let slug = base;
    for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
    taken.add(slug);
    out.set(v, slug);
  }
  return out;
}

export interface CategoryReportOptions extends Omit<RenderReportOptions, 'variant'> {
  category: string;
  formats?: readonly ReportFormat[];
  ensure?: readonly ReportFormat[];
}

export async function renderCategoryReports(options: CategoryReportOptions): Promise<CategoryRendering> {
  const { store, config, category } = options;
  const cwd = options.cwd ?? process.cwd();
  const def = loadReportDefinition(options.report ?? 'nightly', resolve(cwd, config.reports.directory));
  checkCategoryFlag(def, config, category);
  const render = (report: string, variant: RenderReportOptions['variant']) =>
    renderReportFormats({ ...options, report, variant, formats: options.formats, ensure: options.ensure });
  if (def.category === 'summary') {
    return { category, values: [], summary: await render(def.name, { title: category, params: { category, category_value: null } }) };
  }
  const values = await categoryValues(store, config, category);
  const suffixes = valueSuffixes(values);
  const rendered: CategoryRendering['values'] = [];
  for (const value of values) {
    rendered.push({ value, files: await render(def.name, { suffix: suffixes.get(value), title: value, params: { category, category_value: value } }) });
  }
  const summary = def.categorySummary === undefined ? undefined : await render(def.categorySummary, { title: category, params: { category, category_value: null } });
  return { category, values: rendered, summary };
}
