// What a scenario is while it is being built: the generation context, the resources so far and the labels that do
// not need the ledger yet. Events carry how many days their impact is measured over; base.ts and events.ts add to
// a draft, truth.ts turns it into labels with the ledger's figures.
import type { GenContext } from '../account/context.ts';
import type { SimEndpoint, SimPod, SimTemplate, SimVolume } from '../account/types.ts';
import { DAY } from '../time.ts';
import type { LabelledEvent, LabelledNonEvent, Regime } from './labels.ts';

export type EventDraft = Omit<LabelledEvent, 'impactPerDay' | 'mark' | 'dueBy'> & {
  /** Days from firstDay the impact is averaged over (a one-day spike: 1). */
  impactDays: number;
};

export interface ScenarioDraft {
  ctx: GenContext;
  /** Size multiplier of the base pattern: 1 small, 3 medium. */
  m: number;
  templates: SimTemplate[];
  pods: SimPod[];
  endpoints: SimEndpoint[];
  volumes: SimVolume[];
  events: EventDraft[];
  nonEvents: LabelledNonEvent[];
  regimes: Map<string, Regime>;
  /** Evaluation months (YYYY-MM) and their first days (ms). */
  months: { month: string; start: number; end: number }[];
}

export const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const dayMs = (text: string): number => Date.parse(`${text}T00:00:00Z`);
export const addDays = (text: string, n: number): string => dayText(dayMs(text) + n * DAY);

export function templateNamed(draft: ScenarioDraft, name: string): SimTemplate {
  const found = draft.templates.find((t) => t.name === name);
  if (!found) throw new RangeError(`built-in template '${name}' missing`);
  return found;
}

/** A pod template of the draft's own (a workload the account never ran before), made from a built-in one. */
export function newTemplate(draft: ScenarioDraft, from: string, name: string, image: string): SimTemplate {
  const template: SimTemplate = { ...templateNamed(draft, from), id: draft.ctx.newId(10), name, image };
  draft.templates.push(template);
  return template;
}
