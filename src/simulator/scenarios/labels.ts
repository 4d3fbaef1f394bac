// The labels of a scenario account: what a team would want paged for (events), what must not page (non-events), how
// each evaluation month behaves (its forecasting regime, its total, the day it crosses the budget) and the budget.
// Labels are ground truth for the judgement benchmark (bench/judgement.ts) only: they live beside the account as a
// TypeScript object and reach neither the HTTP answers, nor the database, nor any config – except the budget amount,
// which a user would write into their own config.
import type { Scale } from '../account/types.ts';

export const EVENT_KINDS = ['spike', 'runaway', 'unusual-size', 'scale-up', 'new-workload', 'slow-leak'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const NON_EVENT_KINDS = ['cadence', 'weekly-cycle', 'fleet-growth', 'drop', 'outage', 'month-start'] as const;
export type NonEventKind = (typeof NON_EVENT_KINDS)[number];

export const REGIMES = ['flat', 'trending', 'level-shift', 'workload-ends'] as const;
export type Regime = (typeof REGIMES)[number];

/** A billed resource as the billing routes name it. */
export interface LabelledResource {
  source: 'pods' | 'serverless' | 'network-volumes';
  id: string;
}

export interface LabelledEvent {
  kind: EventKind;
  description: string;
  /** The first UTC day (YYYY-MM-DD) the event's resources spend differently (a page before it is too early). */
  startDay: string;
  /** The day from which a page is due: the first day the event shows as what it is (a job left on: the day it
   * outlives every routine run; a leak: the first day it costs as much as `mark` says). */
  firstDay: string;
  /** firstDay + 2: the page must have come by this day. */
  dueBy: string;
  resources: LabelledResource[];
  /** The series it shows in besides its resources: template ids, GPU type ids, endpoint ids. */
  seriesIds: string[];
  /** USD per day above what the resources cost before (from the ledger), two decimals. */
  impactPerDay: string;
  /** must: large against the account's usual day; may: small (a page is neither right nor wrong). */
  mark: 'must' | 'may';
}

export interface LabelledNonEvent {
  kind: NonEventKind;
  description: string;
  /** The days it happens on (a job's start days, a step's day, an outage's first day). */
  days: string[];
  resources: LabelledResource[];
  seriesIds: string[];
}

export interface MonthLabel {
  /** YYYY-MM */
  month: string;
  regime: Regime;
  /** The month's final total from the ledger, two decimals. */
  total: string;
  /** The first day whose end takes the month's spend to the budget or beyond (null: it never does). */
  crossingDay: string | null;
}

export interface ScenarioLabels {
  kind: string;
  seed: number;
  scale: Scale;
  /** The simulated now the scenario ends at (sync and back-test horizon). */
  end: string;
  historyStart: string;
  /** The months the benchmark back-tests, YYYY-MM. */
  evaluationMonths: string[];
  /** The monthly budget in USD (two decimals): the one label a user's own config may carry. */
  budget: string;
  /** Whether the account is post-paid (invoiced): runway alerts on it are wrong. Always false until the simulator
   * serves post-paid accounts (issue 36 point 5). */
  postpaid: boolean;
  /** The account's median day over the history before the first evaluation month, two decimals. */
  typicalDay: string;
  events: LabelledEvent[];
  nonEvents: LabelledNonEvent[];
  months: MonthLabel[];
}
