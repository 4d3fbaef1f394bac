// Scoring of the judgement benchmark (bench/judgement.ts): what the back-test saw – the pages of every night, the
// budget condition of every night, the forecasts at days 7, 14 and 21 – against a scenario's labels. Pure functions
// over plain data, so the rules are read in one place: how an incident is matched to an event, what counts as
// precision, recall and delay, how the baselines forecast, what "visible 10 days ahead" means.
import type { LabelledEvent, ScenarioLabels } from '../src/simulator/scenarios/index.ts';

const DAY = 86_400_000;
export const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const daysBetween = (a: string, b: string) => Math.round((dayMs(b) - dayMs(a)) / DAY);

/** A page: the first night an alert key fired after a night it did not (a nightly cron announces it then). */
export interface Page {
  /** The back-test day (its as-of is the day at 06:00 UTC). */
  day: string;
  key: string;
  rule: string;
  severity: string;
  title: string;
  /** The resources the alert's details name as its drivers. */
  drivers: string[];
  /** The series it shows in (template, endpoint, GPU type ids; families left out: every pod is in 'pod'). */
  series: string[];
}

export interface BudgetNight {
  day: string;
  /** The budget condition's level that night (0: none): forecast 80 % = 1, actual 80 % = 2, forecast 100 % = 3, actual 100 % = 4. */
  level: number;
}

export interface ForecastPoint {
  month: string;
  dayOfMonth: number;
  actual: number;
  product: number | null;
  low: number | null;
  high: number | null;
  runRate7: number;
  weekday28: number;
}

/** An incident matches an event when it names one of the event's resources as a driver (or, with no driver, one of
 * its series) and was paged from the event's start to its due day. */
export function matches(page: Page, event: LabelledEvent): boolean {
  if (page.day < event.startDay || page.day > event.dueBy) return false;
  const ids = new Set([...event.resources.map((r) => r.id), ...event.seriesIds]);
  return page.drivers.length > 0 ? page.drivers.some((d) => ids.has(d)) : page.series.some((s) => ids.has(s));
}

/** What an unmatched page is about, for the breakdown: an event paged outside its window (again after it was due,
 * or before it started), else the non-event among whose resources its drivers are. */
function nonEventOf(page: Page, labels: ScenarioLabels): string {
  for (const e of labels.events) {
    const ids = new Set([...e.resources.map((r) => r.id), ...e.seriesIds]);
    if ((page.drivers.length > 0 ? page.drivers : page.series).some((d) => ids.has(d))) return `${e.kind} outside its window`;
  }
  for (const n of labels.nonEvents) {
    const ids = new Set([...n.resources.map((r) => r.id), ...n.seriesIds]);
    if ((page.drivers.length > 0 ? page.drivers : page.series).some((d) => ids.has(d))) return n.kind;
  }
  return 'unlabelled';
}

export interface AnomalyScore {
  incidents: number;
  matchedMust: number;
  matchedMay: number;
  falsePositives: number;
  /** false positives by the non-event they were about */
  falseByKind: Record<string, number>;
  mustEvents: number;
  mustPaged: number;
  /** per must event: days from firstDay to its first page (0 if paged before it), null if never paged on time */
  delays: (number | null)[];
  events: { kind: string; firstDay: string; mark: string; impactPerDay: string; pagedOn: string | null; delay: number | null }[];
  falsePages: { day: string; title: string; about: string }[];
}

export function scoreAnomalies(pages: readonly Page[], labels: ScenarioLabels): AnomalyScore {
  const anomaly = pages.filter((p) => p.rule === 'anomaly');
  const score: AnomalyScore = { incidents: anomaly.length, matchedMust: 0, matchedMay: 0, falsePositives: 0, falseByKind: {}, mustEvents: 0, mustPaged: 0, delays: [], events: [], falsePages: [] };
  for (const page of anomaly) {
    const hit = labels.events.filter((e) => matches(page, e));
    if (hit.some((e) => e.mark === 'must')) score.matchedMust++;
    else if (hit.length > 0) score.matchedMay++;
    else {
      score.falsePositives++;
      const about = nonEventOf(page, labels);
      score.falseByKind[about] = (score.falseByKind[about] ?? 0) + 1;
      score.falsePages.push({ day: page.day, title: page.title, about });
    }
  }
  for (const e of labels.events) {
    const first = anomaly.filter((p) => matches(p, e)).sort((a, b) => a.day.localeCompare(b.day))[0];
    const delay = first ? Math.max(0, daysBetween(e.firstDay, first.day)) : null;
    score.events.push({ kind: e.kind, firstDay: e.firstDay, mark: e.mark, impactPerDay: e.impactPerDay, pagedOn: first?.day ?? null, delay });
    if (e.mark !== 'must') continue;
    score.mustEvents++;
    if (delay !== null) score.mustPaged++;
    score.delays.push(delay);
  }
  return score;
}

export interface BudgetMonth {
  month: string;
  crossingDay: string | null;
  /** first night the budget alert said the month reaches 100 % (forecast or actual) */
  firstAlert: string | null;
  /** first night the forecast alone said so (level 3 before any actual crossing) */
  firstForecastAlert: string | null;
  /** crossing day − first alert night, days (negative: after the crossing) */
  lead: number | null;
  /** the 7-day run rate made 10 days before the crossing already exceeded the budget */
  visible10: boolean | null;
  /** a 100 % alert in a month that does not cross */
  falseAlert: boolean;
}

/** The 7-day run-rate projection as of a day's 06:00: month to date (complete days) + mean of the last 7 complete
 * days × the days left (the open day included). */
export function runRateProjection(daily: ReadonlyMap<string, number>, asOfDay: string): number {
  const asOf = dayMs(asOfDay);
  const monthStart = Date.UTC(new Date(asOf).getUTCFullYear(), new Date(asOf).getUTCMonth(), 1);
  const monthEnd = Date.UTC(new Date(asOf).getUTCFullYear(), new Date(asOf).getUTCMonth() + 1, 1);
  let mtd = 0;
  for (let d = monthStart; d < asOf; d += DAY) mtd += daily.get(dayText(d)) ?? 0;
  let last7 = 0;
  for (let i = 1; i <= 7; i++) last7 += daily.get(dayText(asOf - i * DAY)) ?? 0;
  return mtd + (last7 / 7) * Math.round((monthEnd - asOf) / DAY);
}

/** The 28-day weekday mean: month to date + for each day left the mean of its weekday over the 28 complete days before. */
export function weekdayProjection(daily: ReadonlyMap<string, number>, asOfDay: string): number {
  const asOf = dayMs(asOfDay);
  const monthStart = Date.UTC(new Date(asOf).getUTCFullYear(), new Date(asOf).getUTCMonth(), 1);
  const monthEnd = Date.UTC(new Date(asOf).getUTCFullYear(), new Date(asOf).getUTCMonth() + 1, 1);
  let mtd = 0;
  for (let d = monthStart; d < asOf; d += DAY) mtd += daily.get(dayText(d)) ?? 0;
  const byWeekday = new Map<number, number[]>();
  for (let i = 1; i <= 28; i++) {
    const d = asOf - i * DAY;
    const w = new Date(d).getUTCDay();
    byWeekday.set(w, [...(byWeekday.get(w) ?? []), daily.get(dayText(d)) ?? 0]);
  }
  let rest = 0;
  for (let d = asOf; d < monthEnd; d += DAY) {
    const xs = byWeekday.get(new Date(d).getUTCDay())!;
    rest += xs.reduce((a, b) => a + b, 0) / xs.length;
  }
  return mtd + rest;
}

export function scoreBudget(nights: readonly BudgetNight[], labels: ScenarioLabels, daily: ReadonlyMap<string, number>): BudgetMonth[] {
  const budget = Number(labels.budget);
  return labels.months.map((m) => {
    const inMonth = nights.filter((n) => n.day.startsWith(m.month));
    const firstAlert = inMonth.find((n) => n.level >= 3)?.day ?? null;
    const firstForecastAlert = inMonth.find((n) => n.level === 3)?.day ?? null;
    const crossing = m.crossingDay;
    let visible10: boolean | null = null;
    if (crossing) {
      const at = dayText(dayMs(crossing) - 10 * DAY);
      // a crossing in the first ten days cannot be seen ten days ahead from inside its month
      visible10 = at.startsWith(m.month) ? runRateProjection(daily, at) >= budget : false;
    }
    return {
      month: m.month,
      crossingDay: crossing,
      firstAlert,
      firstForecastAlert,
      lead: crossing && firstAlert ? daysBetween(firstAlert, crossing) : null,
      visible10,
      falseAlert: crossing === null && firstAlert !== null,
    };
  });
}

export const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const ape = (forecast: number | null, actual: number) => (forecast === null ? null : Math.abs(forecast - actual) / actual);

export const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
