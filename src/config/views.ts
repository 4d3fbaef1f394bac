// The `views` section: saved explorer views (issue 39 §2) – a name, a title and the explorer's parameters in the
// explorer's own words (src/model/explore-vocabulary.ts) – opened at /explore/<name>, rendered by `report --view
// <name>` and emailed to reports.delivery.<name>.recipients. Each refusal is one line naming the view, the key and
// what is accepted. A family's or a component's value is checked here against src/model (they are declared there);
// whether a category and its value exist against the allocation section (schema.ts, viewCategoryProblem); the other
// dimensions' values – templates, endpoints, GPU types, resources, accounts – exist only in the data, so they are
// checked when a database is opened: `report --view` refuses in one line, `serve` says so in its log once it has the
// file (it computes the views with its default pages, serve/default-pages.ts).
import { z } from 'zod';
import { COMPONENT_LABELS, FAMILIES } from '../model/cost-families.ts';
import { ACCEPTED_DIMENSIONS, GRANULARITIES, METRICS, PLAIN_DIMENSIONS, PRESETS } from '../model/explore-vocabulary.ts';
import { dayProblem, rangeProblem } from '../util/dates.ts';
import type { AllocationConfig } from './allocation.ts';

/** A view's name is a path segment (/explore/<name>) and a file name: lowercase letters, digits and "-". */
export const VIEW_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The dimensions whose every value src/model declares: a filter on any other value would answer $0 for ever. */
const DECLARED_VALUES: Readonly<Record<string, readonly string[]>> = { family: FAMILIES, component: Object.keys(COMPONENT_LABELS) };

const dimensionText = z.string().min(1).describe(`A dimension: ${ACCEPTED_DIMENSIONS}.`);

const viewFilterSchema = z
  .object({
    dimension: dimensionText,
    value: z.string().min(1).describe('The value kept (or, with exclude, left out): a template, endpoint, family… name or id, or a category value.'),
    exclude: z.boolean().default(false).describe('Leave the value out instead of keeping only it.'),
  })
  .strict();

const rangeSchema = z
  .union(
    [
      // the presets first, so editors offer them (the JSON Schema); any other text is refused by viewProblem, naming the view
      z.enum(PRESETS),
      z.string(),
      z.object({ from: z.string().describe('First UTC day, YYYY-MM-DD.'), to: z.string().describe('Last UTC day, YYYY-MM-DD (inclusive).') }).strict(),
    ],
    { error: `a preset (${PRESETS.join(', ')}) or {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}` },
  )
  .describe(`A preset counted back from the data's current day (${PRESETS.join(', ')}) or {from, to} UTC days.`);

export const viewSchema = z
  .object({
    name: z.string().describe('The view\'s slug: /explore/<name>, `report --view <name>`, reports.delivery.<name> (lowercase letters, digits, "-").'),
    title: z.string().min(1).describe('Shown on the page, the sheet and the email subject.'),
    description: z.string().min(1).optional().describe('A sentence saying what the view answers.'),
    range: rangeSchema.default('mtd'),
    granularity: z.string().default('day').describe(`One of ${GRANULARITIES.join(', ')}.`),
    by: z.array(dimensionText).default(['family']).describe(`One or two groupings, each ${ACCEPTED_DIMENSIONS}.`),
    filters: z.array(viewFilterSchema).default([]).describe('Filters, as on /explore: values of one dimension are ORed, dimensions ANDed.'),
    metric: z.string().default('cost').describe(`One of ${METRICS.join(', ')}.`),
  })
  .strict()
  .superRefine((view, ctx) => {
    const problem = viewProblem(view);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
export type ViewConfig = z.infer<typeof viewSchema>;

const isDimension = (text: string) => (PLAIN_DIMENSIONS as readonly string[]).includes(text) || /^category:[^:]+$/.test(text);
const categoryOf = (text: string) => (text.startsWith('category:') ? text.slice('category:'.length) : undefined);

/** The first thing wrong with one view's own keys, as one line, or undefined. */
function viewProblem(v: ViewConfig): string | undefined {
  const view = `view '${v.name}'`;
  if (!VIEW_NAME.test(v.name)) return `${view}: name is not a slug: use lowercase letters, digits and "-", starting with a letter or digit (e.g. imaging-90d)`;
  if (typeof v.range === 'string') {
    if (!(PRESETS as readonly string[]).includes(v.range)) return `${view}: range '${v.range}' is not a preset: use ${PRESETS.join(', ')} or {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}`;
  } else {
    const bad = dayProblem(v.range.from, 'range.from') ?? dayProblem(v.range.to, 'range.to') ?? rangeProblem(v.range.from, v.range.to);
    if (bad !== undefined) return `${view}: ${bad}`;
  }
  if (!(GRANULARITIES as readonly string[]).includes(v.granularity)) return `${view}: granularity '${v.granularity}' is not one of ${GRANULARITIES.join(', ')}`;
  if (!(METRICS as readonly string[]).includes(v.metric)) return `${view}: metric '${v.metric}' is not one of ${METRICS.join(', ')}`;
  if (v.by.length < 1 || v.by.length > 2) return `${view}: by has ${v.by.length} groupings; give one or two, each ${ACCEPTED_DIMENSIONS}`;
  const badBy = v.by.find((b) => !isDimension(b));
  if (badBy !== undefined) return `${view}: by '${badBy}' is not a dimension: use ${ACCEPTED_DIMENSIONS}`;
  if (v.by.length === 2 && v.by[0] === v.by[1]) return `${view}: by '${v.by[0]}' is given twice; the second grouping must differ`;
  const badFilter = v.filters.find((f) => !isDimension(f.dimension));
  if (badFilter !== undefined) return `${view}: filter dimension '${badFilter.dimension}' is not a dimension: use ${ACCEPTED_DIMENSIONS}`;
  const undeclared = v.filters.find((f) => DECLARED_VALUES[f.dimension] !== undefined && !DECLARED_VALUES[f.dimension]!.includes(f.value));
  if (undeclared !== undefined) return `${view}: filter ${undeclared.dimension} value '${undeclared.value}' is not a ${undeclared.dimension}: use ${DECLARED_VALUES[undeclared.dimension]!.join(', ')}`;
  const categories = new Set([...v.by, ...v.filters.map((f) => f.dimension)].flatMap((d) => categoryOf(d) ?? []));
  // each category splits the same cost its own way: the explorer answers one per view (request.ts)
  if (categories.size > 1) return `${view}: one allocation category per view; got ${[...categories].join(', ')}`;
  return undefined;
}

export const viewsConfigSchema = z
  .array(viewSchema)
  .default([])
  .superRefine((views, ctx) => {
    const seen = new Set<string>();
    for (const v of views) {
      if (seen.has(v.name)) ctx.addIssue({ code: 'custom', message: `view '${v.name}' is given twice: view names must be unique` });
      seen.add(v.name);
    }
  })
  .describe('Saved explorer views: each at /explore/<name> in serve, rendered by `gpuledger report --view <name>` (emailed with --email to reports.delivery.<name>.recipients).');

/**
 * A view's category and its filter values against the allocation section: a category no rule set gives, or a value
 * no rule (nor the default) gives, would answer $0 for ever – refused at load, naming the view and what exists.
 */
export function viewCategoryProblem(v: ViewConfig, allocation: AllocationConfig): string | undefined {
  const known = Object.keys(allocation.categories);
  for (const d of [...v.by, ...v.filters.map((f) => f.dimension)]) {
    const category = categoryOf(d);
    if (category !== undefined && allocation.categories[category] === undefined) {
      return `view '${v.name}': category '${category}' is not in allocation.categories (${known.length ? known.map((k) => `category:${k}`).join(', ') : 'none configured'})`;
    }
  }
  for (const f of v.filters) {
    const category = categoryOf(f.dimension);
    if (category === undefined) continue;
    const def = allocation.categories[category]!;
    const values = [...new Set([...def.rules.map((r) => r.value), ...def.split.flatMap((s) => s.to), def.default])];
    if (!values.includes(f.value)) return `view '${v.name}': filter ${f.dimension} value '${f.value}' is given by no rule of category '${category}' (its values: ${values.join(', ')})`;
  }
  return undefined;
}
