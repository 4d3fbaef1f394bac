// The `guardrails` section (issue 40): rules that stop what burns money – a trigger (a budget crossing a threshold,
// the prepaid runway under N hours, a waste finding, the spend per hour over a ceiling), a reversible action
// (stop pods; an endpoint's workersMax, or only its workersMin, to 0), a scope of glob patterns with exceptions, a
// cap per run, and who approves: a person (manual, the default) or the rule itself (automatic). There is no action
// that terminates, deletes or changes anything but run state and worker counts: the enum below is all there is.
import { z } from 'zod';

const money = z
  .union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d{1,2})?$/, 'a decimal amount such as 12 or 12.50')])
  .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v));

const glob = z.string().min(1).describe('A glob: * is any run of characters, ? one character; case-sensitive.');
const globs = z
  .union([glob, z.array(glob).min(1)])
  .transform((g) => (typeof g === 'string' ? [g] : g))
  .describe('A glob or a list of globs, any of which may match.');

export const GUARDRAIL_ACTIONS = ['stop-pods', 'scale-endpoint-to-zero', 'workers-min-to-zero'] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];
/** The rpt_waste kinds a guardrail can act on, and the action that ends each. */
export const WASTE_TRIGGER_KINDS = { idle_min_workers: ['workers-min-to-zero', 'scale-endpoint-to-zero'] } as const;

const budgetTrigger = z
  .object({
    kind: z.literal('budget'),
    budget: z.string().min(1).describe('The name of a budget in alerts.budgets.'),
    thresholdPct: z.number().positive().max(1000).default(100).describe('Fires when the spend reaches this % of the budget.'),
    on: z.enum(['actual', 'forecast']).default('actual').describe('Compare the spend so far (actual) or the forecast of the period end.'),
  })
  .strict();

const runwayTrigger = z
  .object({
    kind: z.literal('runway'),
    underHours: z.number().positive().describe('Fires when the prepaid balance lasts fewer hours than this (rpt_runway.runway_hours).'),
  })
  .strict();

const wasteTrigger = z
  .object({
    kind: z.literal('waste'),
    finding: z.enum(Object.keys(WASTE_TRIGGER_KINDS) as ['idle_min_workers']).describe('The rpt_waste kind; the rule acts on the resources it names.'),
  })
  .strict();

const spendTrigger = z
  .object({
    kind: z.literal('spend-per-hour'),
    ceiling: money.describe('Fires when the current spend per hour (rpt_runway.spend_per_hour) exceeds this many USD.'),
  })
  .strict();

export const guardrailTriggerSchema = z
  .discriminatedUnion('kind', [budgetTrigger, runwayTrigger, wasteTrigger, spendTrigger])
  .describe('When the rule fires: {kind: budget|runway|waste|spend-per-hour, …}.');
export type GuardrailTrigger = z.infer<typeof guardrailTriggerSchema>;

export const guardrailRuleSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, ".", "_" or "-"')
      .describe('A short name for the rule; proposals and the audit are keyed by it.'),
    trigger: guardrailTriggerSchema,
    action: z
      .enum(GUARDRAIL_ACTIONS)
      .describe('stop-pods (start again with undo), scale-endpoint-to-zero (workersMax 0), workers-min-to-zero. Nothing is ever terminated or deleted.'),
    account: z.string().min(1).optional().describe('Only this account; default: every account.'),
    scope: z
      .object({
        resource: globs.optional().describe("The pod's or endpoint's id or name."),
        template: globs.optional().describe("The pod's template id (as /v2/pods shows it)."),
        gpuType: globs.optional().describe('The GPU type id, e.g. "NVIDIA A100*".'),
        dataCenter: globs.optional().describe('The data center id, e.g. "EU-RO-1".'),
      })
      .strict()
      .default({})
      .describe('Which resources the rule may touch: all keys given must match; default every resource of the action.'),
    except: z.array(glob).default([]).describe("Never these resources: globs on the id or name, whatever the scope says."),
    maxPerRun: z.number().int().min(1).max(100).default(5).describe('At most this many resources one run of the rule acts on.'),
    approval: z
      .enum(['manual', 'automatic'])
      .default('manual')
      .describe('manual: plan proposes and `guardrails apply --approve ID` carries out; automatic: `guardrails apply` and the nightly run carry it out.'),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const t = rule.trigger;
    if (t.kind === 'waste' && !(WASTE_TRIGGER_KINDS[t.finding] as readonly string[]).includes(rule.action)) {
      ctx.addIssue({ code: 'custom', path: ['action'], message: `a ${t.finding} finding is ended by ${WASTE_TRIGGER_KINDS[t.finding].join(' or ')}, not ${rule.action}` });
    }
    if (rule.action !== 'stop-pods' && (rule.scope.template ?? rule.scope.gpuType ?? rule.scope.dataCenter) !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['scope'], message: `an endpoint action's scope takes resource only (template, gpuType and dataCenter are pod keys)` });
    }
  });
export type GuardrailRule = z.infer<typeof guardrailRuleSchema>;

export const guardrailsConfigSchema = z
  .array(guardrailRuleSchema)
  .default([])
  .refine((rules) => new Set(rules.map((r) => r.name)).size === rules.length, 'guardrail names must be unique')
  .describe('Guardrails: rules that stop pods or scale endpoints down when a trigger fires (gpuledger guardrails plan|apply|undo). Reversible actions only.');
