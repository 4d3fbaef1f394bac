// A draft made into a served account and its labels, with every figure taken from the account's own ground-truth
// ledger (final amounts, whatever the clock): an event's impact per day and its must/may mark, a slow leak's first
// day worth a page, each evaluation month's total and the day it crosses the budget, and the budget itself – picked
// from the month totals so that some months cross it, at various days, and some do not.
import { GPU_CATALOG } from '../account/catalog.ts';
import type { PlantedFacts, SyntheticAccount } from '../account/types.ts';
import { createLedger } from '../ledger/ledger.ts';
import { hashUnit, saltFor } from '../prng.ts';
import { DAY } from '../time.ts';
import { addDays, dayMs, dayText, type ScenarioDraft } from './draft.ts';
import type { LabelledEvent, LabelledResource, MonthLabel, ScenarioLabels } from './labels.ts';

const MICROS = 1e6;
/** A must-page event costs at least this much a day above its resources' own before… */
const MUST_MIN_USD = 40;
/** …and at least this share of the account's median day over the 28 days before it starts. */
const MUST_SHARE = 0.1;
const RESTATED_SHARE = 0.25;

const usd = (micros: number) => (Math.round(micros / 1e4) / 100).toFixed(2);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export interface ScenarioMeta {
  kind: string;
  seed: number;
  scale: SyntheticAccount['scale'];
  /** The day of the month on which the largest month reaches the budget (later when every month would cross). */
  crossDay: number;
  /** Billed after the fact: the simulator serves the account post-paid. */
  postpaid: boolean;
}

function accountOf(draft: ScenarioDraft, meta: ScenarioMeta): SyntheticAccount {
  const { ctx } = draft;
  const salt = saltFor(meta.seed, `restated:${meta.kind}`);
  const restatedIds = new Set([...draft.pods, ...draft.endpoints].map((r) => r.id).filter((id) => hashUnit(salt, saltFor(0, id)) < RESTATED_SHARE));
  const account = {
    seed: ctx.seed,
    scale: meta.scale,
    initialNow: new Date(ctx.t0),
    historyStart: new Date(ctx.historyStart),
    horizonEnd: new Date(ctx.horizonEnd),
    gpus: GPU_CATALOG,
    templates: draft.templates,
    pods: draft.pods,
    endpoints: draft.endpoints,
    volumes: draft.volumes,
    clusters: [],
    publicEndpoints: [],
    serverlessDiscount: null,
    restatedIds,
  } as Omit<SyntheticAccount, 'planted'>;
  // a scenario has labels instead of the ordinary account's planted facts; the serving code never reads them
  // (only tests do), so reading them here fails with a sentence rather than an undefined deep inside a test
  return Object.defineProperty(account, 'planted', {
    enumerable: false,
    get(): PlantedFacts {
      throw new TypeError(`scenario ${meta.kind}:${meta.seed} has no planted facts: read its labels (src/simulator/scenarios/)`);
    },
  }) as SyntheticAccount;
}

export function finishScenario(draft: ScenarioDraft, meta: ScenarioMeta): { account: SyntheticAccount; labels: ScenarioLabels } {
  const account = accountOf(draft, meta);
  const { ctx } = draft;
  const ledger = createLedger(account, () => ctx.horizonEnd + 2 * DAY, false);
  const dayTotal = (day: number) => ledger.finalTotal(day, day + DAY);
  const spentBy = (rs: readonly LabelledResource[], day: number) =>
    rs.reduce((s, r) => s + Number(ledger.sum({ source: r.source, start: new Date(day), end: new Date(day + DAY), resourceId: r.id }).totalAmount), 0);

  const firstMonth = draft.months[0]!.start;
  const typical = median(Array.from({ length: Math.round((firstMonth - ctx.historyStart) / DAY) - 14 }, (_, i) => dayTotal(ctx.historyStart + (14 + i) * DAY)));
  const mustFrom = (start: number) =>
    Math.max(MUST_MIN_USD * MICROS, MUST_SHARE * median(Array.from({ length: 28 }, (_, i) => dayTotal(start - (i + 1) * DAY))));
  const lastDay = draft.months[draft.months.length - 1]!.end - DAY;

  const events: LabelledEvent[] = draft.events.map(({ impactDays, ...e }) => {
    const start = dayMs(e.startDay);
    const before = Array.from({ length: 7 }, (_, i) => spentBy(e.resources, start - (i + 1) * DAY));
    const baseline = before.reduce((a, b) => a + b, 0) / 7;
    const excess = (day: number) => spentBy(e.resources, day) - baseline;
    const must = mustFrom(start);
    let first = dayMs(e.firstDay);
    if (e.kind === 'slow-leak') {
      // a leak is due a page from the first day it costs as much as a must-page event
      let d = start;
      while (d < lastDay && excess(d) < must) d += DAY;
      if (d < lastDay) first = d;
    }
    const days = Array.from({ length: impactDays }, (_, i) => excess(first + i * DAY));
    const impact = days.reduce((a, b) => a + b, 0) / impactDays;
    return { ...e, firstDay: dayText(first), dueBy: addDays(dayText(first), 2), impactPerDay: usd(impact), mark: impact >= must ? 'must' : 'may' };
  });

  const totals = draft.months.map((m) => {
    const days = Array.from({ length: Math.round((m.end - m.start) / DAY) }, (_, i) => dayTotal(m.start + i * DAY));
    return { ...m, days, total: days.reduce((a, b) => a + b, 0) };
  });
  // the largest month crosses the budget on day `crossDay` (to $100); a month that would too when all do is the
  // reason to raise it above the smallest month's total
  const largest = totals.reduce((a, b) => (b.total > a.total ? b : a));
  const reached = largest.days.slice(0, meta.crossDay).reduce((a, b) => a + b, 0);
  const smallest = Math.min(...totals.map((t) => t.total));
  const budgetMicros = Math.ceil(Math.max(reached, smallest * 1.03) / (100 * MICROS)) * 100 * MICROS;
  const months: MonthLabel[] = totals.map((t) => {
    let cum = 0;
    const crossing = t.days.findIndex((d) => (cum += d) >= budgetMicros);
    return { month: t.month, regime: draft.regimes.get(t.month)!, total: usd(t.total), crossingDay: crossing < 0 ? null : dayText(t.start + crossing * DAY) };
  });

  return {
    account,
    labels: {
      kind: meta.kind,
      seed: meta.seed,
      scale: meta.scale,
      end: new Date(ctx.t0).toISOString(),
      historyStart: new Date(ctx.historyStart).toISOString(),
      evaluationMonths: draft.months.map((m) => m.month),
      budget: usd(budgetMicros),
      postpaid: meta.postpaid,
      typicalDay: usd(typical),
      events,
      nonEvents: draft.nonEvents,
      months,
    },
  };
}
