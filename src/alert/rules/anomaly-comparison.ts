// What an anomalous day was compared with, said in words a person can check in /explore, and the explorer link that
// shows it: the series' days over the comparison, by resource (the drivers), on the account. The link is a relative
// path – an alert does not know where `serve` listens (if it runs at all) – in the details and at the end of the
// message; /explore's parameters are src/explore/request.ts's (filters of one dimension are ORed, dimensions ANDed).
import type { AnomalyRule } from '../../config/alerts.ts';
import { hrefWith } from '../../present/index.ts';
import { unitText } from '../../model/index.ts';
import { addDays } from '../../util/utc-days.ts';

export type AnomalyKind = 'departure' | 'size' | 'long' | 'new';

/** One row of sql/alerts/anomaly_days.sql. */
export type AnomalyDay = {
  account: string;
  dimension: string;
  series_id: string;
  series_name: string | null;
  day: string;
  amount: string;
  kind: AnomalyKind;
  expected: string;
  excess: string;
  score: number;
  ratio: string | null;
  baseline_median: string;
  baseline_mad: string;
  baseline_days: number;
  first_covered_day: string;
  episode_start: string;
  episode_days: number;
  episode_total: string;
  past_episodes: number;
  first_episode_start: string | null;
  typical_day: string | null;
  typical_total: string | null;
  typical_length: number | null;
  longest_episode: number | null;
  account_typical: string;
};

const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const lengthText = (days: number) => plural(Math.round(days * 10) / 10, 'day');

/** "weekday", "weekend day" or "day": the days a departure's median was taken over. */
function likeDay(d: AnomalyDay, rule: AnomalyRule): string {
  if (!rule.weekdayAware) return 'day';
  return isWeekend(d.day) ? 'weekend day' : 'weekday';
}

/** "its last 6 jobs (since 2026-07-18, 58 days before)": the past episodes a recurring series is judged against. */
function pastJobs(d: AnomalyDay): string {
  const since = d.first_episode_start ?? d.episode_start;
  return `its last ${plural(d.past_episodes, 'job')} (since ${since}, ${plural(daysBetween(since, d.day), 'day')} before)`;
}

/** The first day the comparison reads: where the explorer's range starts. */
export function comparisonStart(d: AnomalyDay, rule: AnomalyRule): string {
  const start = d.kind === 'size' || d.kind === 'long' ? (d.first_episode_start ?? d.episode_start) : addDays(d.day, -rule.baselineDays);
  return start < d.first_covered_day ? d.first_covered_day : start;
}

/** "$812.00 on 2026-09-14 against $95.00 on a typical active day of its last 6 jobs (…): 8.5× its usual day". */
export function comparisonText(d: AnomalyDay, rule: AnomalyRule): string {
  const spent = `${unitText(d.amount, 'usd', { micros: true })} on ${d.day}`;
  const score = Math.round(d.score * 10) / 10;
  switch (d.kind) {
    case 'departure':
      return (
        `spent ${spent} against ${unitText(d.baseline_median, 'usd', { micros: true })} ` +
        `on a typical ${likeDay(d, rule)} ` +
        `(the median of the ${plural(d.baseline_days, likeDay(d, rule))} before; MAD ${unitText(d.baseline_mad, 'usd', { micros: true })}): ${score} robust standard deviations out`
      );
    case 'size':
      return `spent ${spent} against ${unitText(d.typical_day!, 'usd', { micros: true })} on a typical active day of ${pastJobs(d)}: ${d.ratio}× its usual day`;
    case 'long': {
      const big = Number(d.episode_total) >= rule.episodeRatio * Number(d.typical_total);
      const why = big
        ? `${Math.round((10 * Number(d.episode_total)) / Number(d.typical_total)) / 10}× a typical job`
        : `longer than any of them, and still spending (${unitText(d.amount, 'usd', { micros: true })} on ${d.day})`;
      return (
        `has spent on every day from ${d.episode_start} to ${d.day} (${plural(d.episode_days, 'day')}, ${unitText(d.episode_total, 'usd', { micros: true })}) ` +
        `against a typical job of ${unitText(d.typical_total!, 'usd', { micros: true })} over ${lengthText(d.typical_length!)} among ${pastJobs(d)}, ` +
        `the longest ${plural(d.longest_episode!, 'day')}: ${why}`
      );
    }
    case 'new': {
      const before =
        d.past_episodes > 0
          ? `; its only earlier spend in the ${rule.historyDays} days before: ${plural(d.past_episodes, 'job')} since ${d.first_episode_start}, too few to be a habit`
          : `, and nothing at all since ${d.first_covered_day > addDays(d.day, -rule.historyDays) ? `the first synced day, ${d.first_covered_day}` : addDays(d.day, -rule.historyDays)}`;
      return `spent ${spent}, where it had spent nothing on most of the ${plural(d.baseline_days, likeDay(d, rule))} before${before}`;
    }
  }
}

/** "$717.00/day above what was expected: 14.3 % of acme's typical day ($5,000.00)". */
export function impactText(d: AnomalyDay): string {
  const typical = Number(d.account_typical);
  const share = typical > 0 ? `${Math.round((1000 * Number(d.excess)) / typical) / 10} % of ${d.account}'s typical day (${unitText(d.account_typical, 'usd', { micros: true })})` : `${d.account} had no spend to compare with`;
  return `${unitText(d.excess, 'usd', { micros: true })} above what was expected that day: ${share}`;
}

/** The explorer's view of the comparison: the series on the account, from the comparison's start to `to`, by resource. */
export function exploreHref(d: AnomalyDay, rule: AnomalyRule, to: string): string {
  const value = d.dimension === 'family' ? d.series_id : (d.series_name ?? '(none)');
  return hrefWith('/explore', {
    from: comparisonStart(d, rule),
    to,
    granularity: 'day',
    by: 'resource',
    filter: [`account:${d.account}`, `${d.dimension}:${value}`],
  });
}
