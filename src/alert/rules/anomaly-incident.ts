// One incident, one page. A spike on one endpoint shows in four series – the endpoint, its template, its GPU type and
// its family – each "driven by" the same resource; paging once per series is an alert storm for one cause. Anomalous
// series whose biggest driver (the resource with the largest excess on the series' worst day) is the same resource
// are one incident: one condition naming every series it shows in and the drivers they share, at the highest of their
// levels, open while any of them is anomalous and resolved when none is.
//
// The drivers are summed over the series' anomalous days (anomaly_drivers.sql), so a level shift's driver stays its
// biggest while the shift's days move through the window. The key names the driving resource
// (anomaly:<account>:driver:<family>:<resource id>), not a series or a day, so it stays the same while the incident's
// series come and go and its days move through the window: the alert state, the outbox and the idempotency keys
// (event ids) see one incident from its first page to its resolution. A rise spread over several resources is keyed
// by the template (else the GPU type) its biggest drivers all ran on, anomaly:<account>:<dimension>:<id> – where
// there is none, by the series first anomalous, the narrowest of those –, unless its biggest driver drives an
// incident already; which anomalous series make no incident at all: worthAnIncident.
import type { AnomalyRule } from '../../config/alerts.ts';
import { unitText } from '../../model/index.ts';
import type { Condition } from '../types.ts';
import { comparisonText, exploreHref, impactText } from './anomaly-comparison.ts';
import { driverId, worthAnIncident, type Driver, type SeriesAnomaly } from './anomaly-series.ts';
import { DIMENSIONS, type DimensionName } from '../../model/semantic.ts';

export type { Driver, SeriesAnomaly } from './anomaly-series.ts';

// the narrowest series says best where the money went: it leads the incident's title
const NARROWEST_FIRST = ['endpoint', 'template', 'gpu_type', 'family'];

// the dimension's word is the semantic layer's ("GPU type H100", "template trainer")
const label = (s: SeriesAnomaly) => `${Object.hasOwn(DIMENSIONS, s.dimension) ? DIMENSIONS[s.dimension as DimensionName].word : s.dimension} ${s.name}`;
const score = (s: SeriesAnomaly) => Math.round(s.worst.score * 10) / 10;
const lastDay = (s: SeriesAnomaly) => [...s.days].sort().at(-1)!;

/**
 * The resource that drives a series' anomaly: its biggest driver when that one carries at least two thirds of the
 * drivers' excess. A leak spread over many short-lived resources (a checkpoint volume a day) or a scale-up of several
 * like pods has no such driver – keyed by its top one, the incident would change its key, and page again, every time
 * another resource took the lead.
 */
function drivingResource(s: SeriesAnomaly): Driver | undefined {
  const top = s.drivers[0];
  if (!top) return undefined;
  const total = s.drivers.reduce((n, d) => n + Math.max(0, Number(d.excess)), 0);
  return 3 * Number(top.excess) >= 2 * total ? top : undefined;
}

/** A driven incident is its resource's; a series without one is its own (spread incidents: spreadKeys). */
export function incidentKey(s: SeriesAnomaly): string {
  const top = drivingResource(s);
  return top ? `anomaly:${s.account}:driver:${driverId(top)}` : `anomaly:${s.account}:${s.dimension}:${s.seriesId}`;
}

const topIds = (s: SeriesAnomaly) => new Set(s.drivers.slice(0, 3).map(driverId));

/**
 * Where a spread rise lives: the template its three biggest drivers all ran on, else the GPU type they all ran on –
 * what the resources are, not which series the window happens to show them in. A scale-up of like pods is its
 * template's incident from the night it shows in its GPU type (led there by the fleet pods of that template) to the
 * night only the GPU type's last day is left in the window; keyed by whichever series was first anomalous in the
 * window, it changed its key, and paged again, as the older days slid out.
 */
function homeKey(s: SeriesAnomaly, dimension: 'template' | 'gpu_type'): string | undefined {
  const top = s.drivers.slice(0, 3);
  const id = (d: Driver) => (dimension === 'template' ? d.template_id : d.gpu_type_id);
  const home = id(top[0]!);
  return home != null && top.every((d) => id(d) === home) ? `anomaly:${s.account}:${dimension}:${home}` : undefined;
}

/**
 * Series whose rise is spread over several resources: one incident per home (homeKey) – a scale-up of like pods shows
 * in its GPU type, its template and its family – so it keeps its key whichever of the resources leads on the day and
 * whichever series joins it or leaves the window later, and a later rise of pods of another template is an incident
 * of its own. Resources with no common home (volumes, pods of several templates and GPU types) are grouped when their
 * three biggest drivers are mostly the same, keyed by the series that was anomalous first (the narrowest of those).
 */
function spreadKeys(spread: readonly SeriesAnomaly[], driven: ReadonlyMap<string, string>): Map<SeriesAnomaly, string> {
  const rank = (s: SeriesAnomaly) => NARROWEST_FIRST.indexOf(s.dimension);
  const firstDay = (s: SeriesAnomaly) => [...s.days].sort()[0]!;
  const ordered = [...spread].sort(
    (a, b) => firstDay(a).localeCompare(firstDay(b)) || rank(a) - rank(b) || a.seriesId.localeCompare(b.seriesId),
  );
  const keys = new Map<SeriesAnomaly, string>();
  for (const s of ordered) {
    // its biggest driver drives an incident of its own (a job left on shows in its template alone, and in its family
    // beside the fleet's drift): the same cause, the same incident – not a second page a week later
    const ownedBy = driven.get(`${s.account}:${driverId(s.drivers[0]!)}`);
    if (ownedBy !== undefined) {
      keys.set(s, ownedBy);
      continue;
    }
    const home = homeKey(s, 'template');
    if (home !== undefined) keys.set(s, home);
  }
  for (const s of ordered) {
    if (keys.has(s)) continue;
    const ids = topIds(s);
    // the first series already keyed whose top drivers share at least half of this one's (a GPU type led by the
    // replicas of a template and a dev pod joins the template's incident), else its GPU type, else its own
    const joined = ordered.find((o) => keys.has(o) && o.account === s.account && [...topIds(o)].filter((id) => ids.has(id)).length * 2 >= ids.size);
    keys.set(s, joined ? keys.get(joined)! : (homeKey(s, 'gpu_type') ?? incidentKey(s)));
  }
  return keys;
}

function headline(s: SeriesAnomaly): string {
  const w = s.worst;
  switch (w.kind) {
    case 'new':
      return `New spend: ${label(s)} spent ${unitText(w.amount, 'usd', { micros: true })} on ${w.day}, nothing on most days before`;
    case 'size':
      return `Unusual job: ${label(s)} spent ${unitText(w.amount, 'usd', { micros: true })} on ${w.day} (${w.ratio}× its typical active day)`;
    case 'long':
      return `Job not stopping: ${label(s)} has spent every day since ${w.episode_start} (${unitText(w.episode_total, 'usd', { micros: true })} in ${w.episode_days} days)`;
    case 'departure':
      return `Spend anomaly: ${label(s)} spent ${unitText(w.amount, 'usd', { micros: true })} on ${w.day}${w.ratio === null ? '' : ` (${w.ratio}× its typical day)`}`;
  }
}

/** "endpoint x (acct) spent $244.17 on 2026-11-16 against $29.56 on a typical weekday (…): 72.6 robust standard deviations out; $214.61 above …" */
function finding(s: SeriesAnomaly, rule: AnomalyRule, withAccount: boolean): string {
  return `${label(s)}${withAccount ? ` (${s.account})` : ''} ${comparisonText(s.worst, rule)}`;
}

/** The drivers every series of the incident shares, each at its largest excess (a lone series: all its drivers). */
function sharedDrivers(members: readonly SeriesAnomaly[]): Driver[] {
  const [first, ...rest] = members;
  const shared = first!.drivers.filter((d) => rest.every((m) => m.drivers.some((x) => driverId(x) === driverId(d))));
  return shared
    .map((d) => members.flatMap((m) => m.drivers.filter((x) => driverId(x) === driverId(d))).reduce((a, b) => (Number(b.excess) > Number(a.excess) ? b : a)))
    .sort((a, b) => Number(b.excess) - Number(a.excess) || a.resource_id.localeCompare(b.resource_id));
}

function condition(key: string, members: SeriesAnomaly[], rule: AnomalyRule): Condition {
  const lead = members[0]!;
  const level = Math.max(...members.map((m) => m.level));
  const days = [...new Set(members.flatMap((m) => m.days))].sort();
  const drivers = sharedDrivers(members);
  const driverText = drivers.map((d) => `${d.resource_name ?? d.resource_id} +${unitText(d.excess, 'usd', { micros: true })}`).join(', ');
  const daysText = days.length > 1 ? ` Anomalous days in the last ${rule.windowDays}: ${days.join(', ')}.` : '';
  const others = members.slice(1).map(label);
  const explore = exploreHref(lead.worst, rule, lastDay(lead));
  const message =
    (members.length === 1
      ? `${finding(lead, rule, true)}; ${impactText(lead.worst)}.${daysText}${driverText ? ` Driven by (above their average day, over the anomalous days): ${driverText}.` : ''}`
      : `One incident in ${lead.account}, driven by ${driverText} (above their average day, over the anomalous days); it shows in ${members.length} series: ` +
        `${members.map((m) => finding(m, rule, false)).join('; ')}. ${label(lead)}: ${impactText(lead.worst)}.${daysText}`) + ` In the explorer: ${explore}`;
  return {
    key,
    rule: 'anomaly',
    account: lead.account,
    level,
    severity: level >= 2 ? 'critical' : 'warning',
    title: others.length > 0 ? `${headline(lead)} – also ${others.join(', ')}` : headline(lead),
    message,
    // per series, as gpuledger alerted before incidents
    supersedes: members.map((m) => `anomaly:${m.account}:${m.dimension}:${m.seriesId}`).filter((k) => k !== key),
    details: {
      dimension: lead.dimension,
      series_id: lead.seriesId,
      series_name: lead.name,
      kind: lead.worst.kind,
      day: lead.worst.day,
      days,
      amount: lead.worst.amount,
      expected: lead.worst.expected,
      excess: lead.worst.excess,
      account_typical: lead.worst.account_typical,
      baseline_median: lead.worst.baseline_median,
      baseline_mad: lead.worst.baseline_mad,
      score: score(lead),
      ratio: lead.worst.ratio,
      explore,
      drivers,
      series: members.map((m) => ({
        dimension: m.dimension,
        series_id: m.seriesId,
        series_name: m.name,
        kind: m.worst.kind,
        day: m.worst.day,
        days: m.days,
        amount: m.worst.amount,
        expected: m.worst.expected,
        excess: m.worst.excess,
        baseline_median: m.worst.baseline_median,
        past_episodes: m.worst.past_episodes,
        score: score(m),
        ratio: m.worst.ratio,
        level: m.level,
        explore: exploreHref(m.worst, rule, lastDay(m)),
      })),
    },
  };
}

/** The incidents the anomalous series make: one condition each, its series narrowest first. */
export function incidentsOf(all: readonly SeriesAnomaly[], rule: AnomalyRule): Condition[] {
  const series = worthAnIncident(all, rule);
  const driven = new Map<string, string>();
  for (const s of series) {
    const top = drivingResource(s);
    if (top) driven.set(`${s.account}:${driverId(top)}`, incidentKey(s));
  }
  const spread = spreadKeys(series.filter((s) => s.drivers.length > 0 && drivingResource(s) === undefined), driven);
  const keyOf = (s: SeriesAnomaly) => spread.get(s) ?? incidentKey(s);
  const groups = new Map<string, SeriesAnomaly[]>();
  for (const s of series) groups.set(keyOf(s), [...(groups.get(keyOf(s)) ?? []), s]);
  const rank = (s: SeriesAnomaly) => NARROWEST_FIRST.indexOf(s.dimension);
  return [...groups].map(([key, members]) =>
    condition(key, [...members].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name)), rule),
  );
}
