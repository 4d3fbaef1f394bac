// What a report definition file (reports/<name>.yaml|.yml|.json) may say, checked with zod (STYLE.md §10).
// A report is a list of sheets; each sheet is fed by SQL (or a view) and says its columns, headings, number
// formats, totals and conditional formats; the summary sheet adds figures, small tables and charts. One file as the
// definition is one document (256 lines with showback's category keys); the sheet kinds are the seam to split at next.
import { z } from 'zod';
import { DEFAULT_PERIODS } from '../period/index.ts';
import { UNIT_NAMES, type Unit } from '../../model/index.ts';

/** Parameters SQL in a definition may use (bound as typed values, never spliced into the text). */
export const SQL_PARAMETERS = {
  period_start: 'first day of the period (DATE)',
  period_end: 'last day of the period, inclusive (DATE)',
  as_of: 'the clock the report views are evaluated at (TIMESTAMPTZ, also getvariable(\'gpuledger_as_of\'))',
  budget_monthly: 'reports.budget.monthly from the config (DECIMAL), NULL when no budget is configured',
  category: "the allocation category of a report with `category:` (--category, VARCHAR), NULL otherwise",
  category_value: 'the value a per_value report is rendered for (VARCHAR), NULL otherwise',
} as const;

/** per_value: rendered once per value of the --category category; summary: once for the whole category. */
export const CATEGORY_MODES = ['per_value', 'summary'] as const;
export type CategoryMode = (typeof CATEGORY_MODES)[number];
export type SqlParameter = keyof typeof SQL_PARAMETERS;

// Excel: at most 31 characters, none of : \ / ? * [ ]
const sheetName = z
  .string()
  .min(1)
  .max(31, 'at most 31 characters (an Excel limit)')
  .regex(/^[^:\\/?*[\]]+$/, 'no : \\ / ? * [ ] (Excel forbids them in sheet names)');

/** What a report can be written as: the workbook, the self-contained HTML page, or both. */
export const REPORT_FORMATS = ['xlsx', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a column name (letters, digits, underscore)');

const unit = z
  .enum(UNIT_NAMES)
  .optional()
  .describe('What the values are measured in, which decides how they read (default: the unit src/model/units.ts declares for the column name, else from the SQL type).');

// `format:` is the older spelling of `unit:` (and `integer` of `count`): definitions written with it keep working,
// and a bad value is named by the key the file says
const olderFormat = z.enum([...UNIT_NAMES, 'integer']).optional().describe('The older spelling of unit.');

function withUnit<T extends { unit?: Unit | undefined; format?: Unit | 'integer' | undefined }>(v: T): Omit<T, 'format'> & { unit?: Unit | undefined } {
  const { format, ...rest } = v;
  return { ...rest, unit: v.unit ?? (format === 'integer' ? 'count' : format) };
}

const columnObject = z
  .object({
    field: identifier.describe('Column of the query result.'),
    header: z.string().min(1).optional().describe('Heading shown in the sheet (default: the model label of a cost family column – pod, storage … – else the field name in words).'),
    unit,
    format: olderFormat,
    width: z.number().min(3).max(120).optional().describe('Column width in characters (default: fit the content).'),
    total: z.enum(['sum', 'label']).optional().describe('Totals row: sum this column, or put the word "Total" here.'),
    dataBar: z.boolean().default(false).describe('Draw a data bar in each cell (cost columns).'),
    upIsBad: z
      .boolean()
      .default(false)
      .describe('A change column: increases red, decreases green (it is cost), shown with a sign.'),
    linksTo: sheetName
      .optional()
      .describe('HTML report: each value links to this sheet\'s section, filtered to the rows that hold the value (drill-down).'),
  })
  .strict();
export const columnSchema = columnObject.transform(withUnit);
export type ColumnDefinition = z.output<typeof columnSchema>;

const sourceShape = {
  sql: z.string().min(1).optional().describe('The query; may use $period_start, $period_end, $as_of, $budget_monthly.'),
  view: identifier.optional().describe('A view (or table) to read instead of sql.'),
  where: z.string().min(1).optional().describe('With view: a filter, e.g. "day between $period_start and $period_end".'),
  orderBy: z.string().min(1).optional().describe('With view: the sort order.'),
};

function oneSource(v: { sql?: string | undefined; view?: string | undefined; where?: string | undefined; orderBy?: string | undefined }, ctx: z.RefinementCtx) {
  if ((v.sql === undefined) === (v.view === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['sql'], message: 'give exactly one of sql or view' });
  }
  if (v.sql !== undefined && (v.where !== undefined || v.orderBy !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['where'], message: 'where/orderBy go with view; put them into the sql instead' });
  }
}

export const tableSheetSchema = z
  .object({
    kind: z.literal('table').describe('A table sheet (the default kind).'),
    name: sheetName.describe('Sheet (tab) name.'),
    title: z.string().min(1).optional().describe('Title above the table (default: the sheet name).'),
    description: z.string().min(1).optional().describe('One line under the title: what a row is.'),
    ...sourceShape,
    columns: z.array(columnSchema).min(1).optional().describe('Columns to show, in order (default: all, each in its declared unit).'),
    freezeColumns: z.number().int().min(0).max(10).default(0).describe('Columns kept visible when scrolling right.'),
    large: z
      .boolean()
      .default(false)
      .describe('Expect many rows (a detail sheet): count, totals and widths come from one SQL pass first, then the rows stream. Without it the first 20,000 rows are read before deciding.'),
    emptyText: z.string().default('No rows for this period.').describe('Shown when the query returns nothing.'),
  })
  .strict()
  .superRefine(oneSource);
export type TableSheetDefinition = z.infer<typeof tableSheetSchema>;

const figureObject = z
  .object({
    label: z.string().min(1),
    field: identifier,
    unit,
    format: olderFormat,
    note: z.string().optional().describe('Text beside the value; {field} inserts another column, formatted.'),
    hideIfNull: z.boolean().default(false).describe('Leave the line out when the value is NULL (e.g. no budget set).'),
    upIsBad: z.boolean().default(false).describe('Colour the value: increases red, decreases green.'),
  })
  .strict();
const figureSchema = figureObject.transform(withUnit);

// a block over a view that another feature adds (e.g. rpt_balance_daily with the prepaid balance): the block is
// left out, and the About sheet says so, in a database that does not have the view yet
const requiresView = identifier.optional().describe('Show this block only when this view exists in the database.');

const figuresBlockSchema = z
  .object({
    kind: z.literal('figures'),
    title: z.string().min(1),
    requiresView,
    sql: z.string().min(1).describe('One row; each item shows one of its columns.'),
    items: z.array(figureSchema).min(1),
  })
  .strict();

const tableBlockSchema = z
  .object({
    kind: z.literal('table'),
    title: z.string().min(1),
    requiresView,
    sql: z.string().min(1),
    columns: z.array(columnSchema).min(1).optional(),
    limit: z.number().int().min(1).max(1000).default(50).describe('At most this many rows (a summary stays short).'),
    emptyText: z.string().default('None.'),
  })
  .strict();

export const CHART_KINDS = ['stacked_bars', 'cumulative'] as const;

export const chartSchema = z
  .object({
    id: identifier.describe('Name of the chart (image file name, email reference).'),
    kind: z.enum(CHART_KINDS).describe('stacked_bars: one bar per x, stacked by series; cumulative: actual vs forecast.'),
    title: z.string().min(1),
    titleWithBudget: z
      .string()
      .min(1)
      .optional()
      .describe('cumulative: the title when the budget column holds a budget (a title names a budget only when there is one).'),
    subject: identifier
      .optional()
      .describe('cumulative: a column naming what the line measures – its metric and scope – the same on every row; titleWithSubject and the legend name it.'),
    titleWithSubject: z
      .string()
      .min(1)
      .optional()
      .describe('cumulative: the title when the subject column holds a value, {subject} replaced by it (a chart of one of several metrics says which).'),
    sql: z.string().min(1),
    x: identifier.describe('The x column (a DATE).'),
    series: identifier.optional().describe('stacked_bars: the column naming the stack segment.'),
    value: identifier.optional().describe('stacked_bars: the amount column.'),
    actual: identifier.optional().describe('cumulative: cumulative actual amount (NULL on future days).'),
    forecast: identifier.optional().describe('cumulative: cumulative forecast (NULL on past days).'),
    low: identifier.optional().describe('cumulative: lower end of the forecast range.'),
    high: identifier.optional().describe('cumulative: upper end of the forecast range.'),
    budget: identifier.optional().describe('cumulative: a column holding the budget line (NULL: no line).'),
    email: z.boolean().default(false).describe('Also show this chart inline in the email.'),
    requiresView: identifier.optional().describe('Draw this chart only when this view exists in the database.'),
    width: z.number().int().min(300).max(2000).default(760),
    height: z.number().int().min(200).max(1200).default(340),
  })
  .strict()
  .superRefine((c, ctx) => {
    const need = c.kind === 'stacked_bars' ? (['series', 'value'] as const) : (['actual'] as const);
    for (const key of need) {
      if (c[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `required for a ${c.kind} chart` });
    }
  });
export type ChartDefinition = z.infer<typeof chartSchema>;

export const summarySheetSchema = z
  .object({
    kind: z.literal('summary'),
    name: sheetName,
    title: z.string().min(1).optional(),
    blocks: z.array(z.discriminatedUnion('kind', [figuresBlockSchema, tableBlockSchema])).default([]),
    charts: z.array(chartSchema).default([]),
  })
  .strict();
export type SummarySheetDefinition = z.infer<typeof summarySheetSchema>;
export type SummaryBlock = SummarySheetDefinition['blocks'][number];

// `kind` may be left out for a table sheet; then the discriminated union names the bad key in its message
export const sheetSchema = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !('kind' in v) ? { ...v, kind: 'table' } : v),
  z.discriminatedUnion('kind', [summarySheetSchema, tableSheetSchema]),
);
export type SheetDefinition = z.infer<typeof sheetSchema>;

export const reportDefinitionSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes').optional(),
    title: z.string().min(1).describe('Workbook and email title.'),
    description: z.string().optional(),
    defaultPeriod: z.enum(DEFAULT_PERIODS).describe('Period without --period: month_to_date or previous_month.'),
    sheets: z.array(sheetSchema).min(1),
    metadataSheet: z.boolean().default(true).describe('Append the "About" sheet (generated at, version, queries).'),
    formats: z
      .array(z.enum(REPORT_FORMATS))
      .min(1)
      .optional()
      .describe('What `gpuledger report` writes without --format: xlsx, html or both (default: config reports.formats, else xlsx).'),
    category: z
      .enum(CATEGORY_MODES)
      .optional()
      .describe('Needs --category: per_value renders the report once per value of that allocation category ($category_value bound), summary once for it ($category bound).'),
    categorySummary: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'a report name')
      .optional()
      .describe('per_value: the report (category: summary) rendered after the values, e.g. every value\'s share.'),
  })
  .strict()
  .superRefine((d, ctx) => {
    const names = new Set(d.sheets.map((s) => s.name));
    d.sheets.forEach((s, i) => {
      if (s.kind === 'summary') return;
      (s.columns ?? []).forEach((c, j) => {
        if (c.linksTo !== undefined && !names.has(c.linksTo)) {
          ctx.addIssue({ code: 'custom', path: ['sheets', i, 'columns', j, 'linksTo'], message: `no sheet is named '${c.linksTo}' (sheets: ${[...names].join(', ')})` });
        }
      });
    });
    const seen = new Set<string>();
    d.sheets.forEach((s, i) => {
      const key = s.name.toLowerCase();
      if (seen.has(key) || (d.metadataSheet && key === 'about')) {
        ctx.addIssue({ code: 'custom', path: ['sheets', i, 'name'], message: `sheet name '${s.name}' is used twice` });
      }
      seen.add(key);
    });
  });
export type ReportDefinitionInput = z.input<typeof reportDefinitionSchema>;

export interface ReportDefinition extends z.infer<typeof reportDefinitionSchema> {
  name: string;
  /** The file it came from. */
  file: string;
}
