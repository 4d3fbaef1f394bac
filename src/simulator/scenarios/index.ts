// The scenario library: deterministic labelled accounts built from (kind, seed) for the judgement benchmark
// (bench/judgement.ts, issue 36). Each kind is the base pattern (base.ts) at a scale with its own mix of labelled
// events (events.ts) spread over the evaluation months July–October 2026; the history starts on 1 May (184 days
// before the end) and the scenario ends – its simulated now – on 1 November 2026 at 06:00 UTC. The same (kind, seed)
// always gives the same account, ledger and labels.
// `startSimulator({ scenario: { kind, seed } })` and `gpuledger simulator --scenario KIND:SEED` serve one.
import { UsageError } from '../../util/errors.ts';
import { createGenContext } from '../account/context.ts';
import { createTemplates } from '../account/templates.ts';
import type { Scale, SyntheticAccount } from '../account/types.ts';
import { saltFor } from '../prng.ts';
import { DAY } from '../time.ts';
import { buildBase } from './base.ts';
import { dayMs, type ScenarioDraft } from './draft.ts';
import { EVENT_BUILDERS, type EventSize } from './events.ts';
import type { EventKind, ScenarioLabels } from './labels.ts';
import { finishScenario } from './truth.ts';

export type * from './labels.ts';
export { EVENT_KINDS, NON_EVENT_KINDS, REGIMES } from './labels.ts';

export const SCENARIO_END = '2026-11-01T06:00:00Z';
export const SCENARIO_HISTORY_DAYS = 184;
export const EVALUATION_MONTHS = ['2026-07', '2026-08', '2026-09', '2026-10'] as const;

interface KindSpec {
  scale: Scale;
  description: string;
  /** Billed after the fact (an invoiced account): its balance goes below $0 and nothing is stopped. */
  postpaid?: boolean;
  events: readonly (readonly [EventKind, EventSize])[];
}

export const SCENARIO_KINDS = {
  'spike-and-leak': { scale: 'small', description: 'a one-day spike, a scale-up by mistake and a slow leak', events: [['spike', 'large'], ['scale-up', 'large'], ['slow-leak', 'large']] },
  'left-on': { scale: 'small', description: 'a dev pod left on and a job of unusual size', events: [['runaway', 'large'], ['unusual-size', 'large']] },
  'new-workload': { scale: 'small', description: 'a new expensive workload and a one-day spike', events: [['new-workload', 'large'], ['spike', 'large']] },
  'busy-medium': { scale: 'medium', description: 'medium scale: a dev pod left on, a job of unusual size, a new workload, a scale-up', events: [['runaway', 'large'], ['unusual-size', 'large'], ['new-workload', 'large'], ['scale-up', 'large']] },
  'small-events': { scale: 'small', description: 'only events too small to matter, on a post-paid account', postpaid: true, events: [['spike', 'small'], ['new-workload', 'small'], ['runaway', 'small'], ['scale-up', 'small']] },
  'quiet-medium': { scale: 'medium', description: 'medium scale, routine spend and one spike, on a post-paid account', postpaid: true, events: [['spike', 'large']] },
} as const satisfies Record<string, KindSpec>;

export type ScenarioKind = keyof typeof SCENARIO_KINDS;

export interface ScenarioRef {
  kind: string;
  seed: number;
}

export interface Scenario {
  account: SyntheticAccount;
  labels: ScenarioLabels;
}

export function isScenarioKind(kind: string): kind is ScenarioKind {
  return Object.hasOwn(SCENARIO_KINDS, kind);
}

function monthBounds(month: string): { month: string; start: number; end: number } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return { month, start: Date.UTC(y, m - 1, 1), end: Date.UTC(y, m, 1) };
}

export function createScenario(ref: ScenarioRef): Scenario {
  if (!isScenarioKind(ref.kind)) {
    throw new UsageError(`unknown scenario kind '${ref.kind}': one of ${Object.keys(SCENARIO_KINDS).join(', ')}`);
  }
  if (!Number.isSafeInteger(ref.seed) || ref.seed < 0) throw new UsageError(`a scenario seed must be an integer ≥ 0, got ${ref.seed}`);
  const spec: KindSpec = SCENARIO_KINDS[ref.kind];
  const ctx = createGenContext(saltFor(ref.seed, `scenario:${ref.kind}`), Date.parse(SCENARIO_END), SCENARIO_HISTORY_DAYS);
  const m = spec.scale === 'medium' ? 3 : 1;
  const draft: ScenarioDraft = {
    ctx, m, templates: createTemplates(ctx.rng, ctx.newId, 0), pods: [], endpoints: [], volumes: [], events: [], nonEvents: [],
    regimes: new Map(), months: EVALUATION_MONTHS.map(monthBounds),
  };
  buildBase(draft);
  // events spread over the months: one in each equal stretch of [6 July, 26 October], at least 3 days from its ends
  const from = dayMs('2026-07-06');
  const span = (dayMs('2026-10-26') - from) / DAY;
  const stretch = Math.floor(span / spec.events.length);
  spec.events.forEach(([kind, size], i) => {
    const day = from + (i * stretch + ctx.rng.int(3, Math.max(3, stretch - 3))) * DAY;
    EVENT_BUILDERS[kind](draft, day, size);
  });
  return finishScenario(draft, { kind: ref.kind, seed: ref.seed, scale: spec.scale, crossDay: ctx.rng.int(12, 26), postpaid: spec.postpaid ?? false });
}

/** "left-on:3" → { kind, seed } (the CLI's --scenario). */
export function parseScenarioRef(text: string): ScenarioRef {
  const m = /^([a-z][a-z-]*):(\d{1,9})$/.exec(text);
  if (!m || !isScenarioKind(m[1]!)) {
    throw new UsageError(`--scenario must be KIND:SEED with KIND one of ${Object.keys(SCENARIO_KINDS).join(', ')} and SEED an integer, e.g. left-on:3`);
  }
  return { kind: m[1]!, seed: Number(m[2]) };
}
