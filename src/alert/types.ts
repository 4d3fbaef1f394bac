// What rules produce and channels receive. A Condition is what is true now (as of the evaluation); an AlertEvent is
// what changed since the last run (state.ts) – only events are sent, so a condition alerts once, again when it
// escalates, and once more when it clears.
import type { Severity } from '../config/alerts.ts';

export const RULE_KINDS = ['budget', 'anomaly', 'waste', 'data_quality', 'runway', 'unit_cost', 'guardrail'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface Condition {
  /** Stable across runs: the rule, the account and the series or finding. */
  key: string;
  rule: RuleKind;
  /** '*' for a rule over all accounts. */
  account: string;
  /** Higher is worse; a firing condition is announced again only when its level rises. */
  level: number;
  severity: Severity;
  title: string;
  message: string;
  details: Record<string, unknown>;
  /**
   * When the condition stops being evaluated because its period is over (a budget's month), it is closed
   * without a "resolved" message: nobody needs to hear that October ended.
   */
  expiresAt?: Date;
  /**
   * Keys an older gpuledger alerted under for what this condition now says (an anomaly incident's per-series keys):
   * still firing under them, they close without a message, so an upgrade does not "resolve" what is still true.
   */
  supersedes?: string[];
}

export type EventKind = 'fired' | 'escalated' | 'resolved';

export interface AlertEvent {
  eventId: string;
  event: EventKind;
  key: string;
  rule: RuleKind;
  account: string;
  severity: Severity;
  level: number;
  title: string;
  message: string;
  details: Record<string, unknown>;
  /** The moment the rules were evaluated at. */
  asOf: Date;
  createdAt: Date;
}

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };
