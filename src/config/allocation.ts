// The `allocation` section: categories (team, project, cost center…) whose values are given to cost by ordered
// first-match rules, with split rules that move a shared value's cost onto others (issue 13). The rules are loaded
// into the allocation_* tables (src/allocation/load-rules.ts) and applied by the SQL views, so history follows them.
import { z } from 'zod';
import { CATEGORY_NAME, checkAllocation } from './allocation-check.ts';

export { MATCH_KEYS, type MatchKey } from './allocation-check.ts';

const glob = z.string().min(1).describe('A glob: * is any run of characters, ? one character; matching is case-sensitive.');
const globs = z.union([glob, z.array(glob).min(1)]).describe('A glob or a list of globs, any of which may match.');

const matchSchema = z
  .object({
    account: globs.optional().describe('The account name from the accounts section.'),
    family: globs.optional().describe('pod, serverless, storage, public_endpoint or cluster.'),
    component: globs.optional().describe('gpu, cpu, disk, fee, standard, high_performance, networking or usage.'),
    resource: globs.optional().describe('The resource id or its name as of the cost\'s day (pod, endpoint, volume, cluster).'),
    template: globs.optional().describe('The template id or its name as of the cost\'s day.'),
    endpoint: globs.optional().describe('The Serverless endpoint id or its name as of the cost\'s day.'),
    gpuType: globs.optional().describe('The GPU type id or its name, e.g. "NVIDIA A100*".'),
    dataCenter: globs.optional().describe('The data center id, e.g. "EU-RO-1".'),
  })
  .strict();

const valueName = z.string().min(1);

export const allocationRuleSchema = z
  .object({
    value: valueName.describe('The value cost matching this rule gets, e.g. a team name.'),
    match: matchSchema.describe('All keys given must hold; the first rule in the list that matches wins.'),
  })
  .strict();

export const allocationSplitSchema = z
  .object({
    from: valueName.describe('The value whose cost is moved (e.g. a shared "platform").'),
    to: z.array(valueName).min(1).describe('The values that receive it.'),
    by: z
      .union([
        z.enum(['proportional', 'even']),
        z.record(z.string(), z.number().positive()),
      ])
      .default('proportional')
      .describe(
        'proportional: to the targets\' direct cost in the same account and UTC day; even: equal shares; or {value: percent, …} summing to 100.',
      ),
  })
  .strict();

export const allocationCategorySchema = z
  .object({
    rules: z.array(allocationRuleSchema).default([]).describe('Ordered rules; the first that matches a cost wins.'),
    default: valueName.default('unallocated').describe('The value of cost no rule matches.'),
    split: z
      .array(allocationSplitSchema)
      .default([])
      .describe('Splits applied to the values\' direct cost; a split\'s targets cannot be split again.'),
  })
  .strict();

export const allocationConfigSchema = z
  .preprocess(
    // the semantic checks run on the raw input first so that a bad rule is one message with its 1-based index
    (raw, ctx) => {
      const problem = checkAllocation(raw);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: raw });
      return raw;
    },
    z
      .object({
        categories: z
          .record(z.string().regex(CATEGORY_NAME, 'a category name: a letter, then letters, digits, "_" or "-"'), allocationCategorySchema)
          .default({})
          .describe('Categories side by side (e.g. team, project, cost_center), each allocating all cost independently.'),
      })
      .strict(),
  )
  .describe('Allocation of cost to teams, projects or cost centers (cost_allocated, rpt_by_category, allocation explain).');

export type AllocationConfig = z.infer<typeof allocationConfigSchema>;
export type AllocationCategory = z.infer<typeof allocationCategorySchema>;
export type AllocationRule = z.infer<typeof allocationRuleSchema>;
export type AllocationSplit = z.infer<typeof allocationSplitSchema>;
