// What an anomalous series is, and which of them are worth an incident at all: the resources that drove it
// (anomaly_drivers.sql) decide – a fleet's usual growth, routine jobs, a family whose pods rose only where they are
// usual and a series none of whose resources rose make none (anomaly-incident.ts groups the rest into incidents).
import type { AnomalyRule } from '../../config/alerts.ts';
import type { AnomalyDay } from './anomaly-comparison.ts';

export interface Driver {
  family: string;
  resource_id: string;
  resource_name: string | null;
  /** It also belongs to a template, endpoint or GPU type series (a pod, an endpoint; not a volume). */
  in_narrower_series: boolean;
  /** The template it ran on (a pod, an endpoint; null for a volume or a custom image). */
  template_id: string | null;
  /** The GPU type it ran on (null for a volume). */
  gpu_type_id: string | null;
  /** Of the whole series (every row the same): the share of its excess from fleet-like additions (anomaly_drivers.sql). */
  fleet_like_share: number;
  /** Of the whole series: the most fleet-like additions first billed on one day. */
  fleet_like_batch: number;
  /** Of the whole series: the days its fleet-like additions were first billed on. */
  fleet_addition_days: number;
  /** The account's precedents: days in historyDays before the baseline on which pods it then ran every day were first billed. */
  fleet_batches: number;
  /** The most such pods first billed on one of those days. */
  fleet_largest_batch: number;
  /** Of the whole series: the share of its excess from routine jobs – pods like ones the account ran before (anomaly_drivers.sql). */
  job_like_share: number;
  /** Of the whole series: the excess of every rising resource, per anomalous day. */
  rising_excess: string;
  /** This resource is a routine job (counted in job_like_share). */
  job_like: boolean;
  /** Its spend over the series' anomalous days. */
  amount: string;
  baseline_average: string;
  /** Above its average day, over the series' anomalous days. */
  excess: string;
  /** The series' worst day. */
  day: string;
}

export interface SeriesAnomaly {
  account: string;
  dimension: string;
  seriesId: string;
  name: string;
  /** The day that cost the most above what was expected. */
  worst: AnomalyDay;
  /** Every anomalous day of the window. */
  days: string[];
  /** Biggest excess first. */
  drivers: Driver[];
  level: number;
}

export const driverId = (d: Pick<Driver, 'family' | 'resource_id'>) => `${d.family}:${d.resource_id}`;

/**
 * A rise made mostly of fleet-like additions – new pods of a template the account already runs every day, each
 * running every day since – when the account has added always-on pods on `recurringEpisodes` other days (before the
 * baseline, or earlier steps of this rise) and at most twice as many at once as its biggest step before (one pod at
 * a time counts as a step of one): the fleet's growth, its habit – steps vary, a project of two pods where single
 * pods came before is still growth. Many more pods at once than it has ever added (a scale-up by mistake), pods of
 * a new template (a new workload) or a resource that was there before (a job left on) still page.
 */
function grewAsBefore(top: Driver, rule: AnomalyRule): boolean {
  if (top.fleet_addition_days === 0 || top.fleet_batches + top.fleet_addition_days - 1 < rule.recurringEpisodes) return false;
  return 2 * top.fleet_like_share >= 1 && top.fleet_like_batch <= 2 * Math.max(top.fleet_largest_batch, 1);
}

/**
 * Routine jobs: the pods that carry the rise are jobs like the ones the account runs on that template and GPU type
 * (as many at once, no dearer a day, no longer), and what is left when they are taken out is under minCost a day –
 * one more training job of a weekly cadence is the account's habit, even where it lifts a series that also has a
 * steady level (a GPU type the fleet uses too).
 */
function routineJobs(top: Driver, rule: AnomalyRule): boolean {
  if (top.job_like_share <= 0) return false;
  return (1 - top.job_like_share) * Number(top.rising_excess) < Number(rule.minCost);
}

/**
 * The anomalous series worth an incident. Not one whose resources none rose above their own average day (drivers
 * empty): its spend comes in bursts and only its median was low. Not a family whose biggest driver also belongs to
 * narrower series (a pod's template and GPU type) none of which departs with it: the family's day is then the sum of
 * routine things – a training job, a month-close run and a new fleet pod on one day – each usual where it belongs.
 * A family of resources with no narrower series (volumes) is judged by the family alone; one whose biggest driver is
 * a routine job makes none either (what else rose shows in its narrower series). Nor a fleet's usual growth
 * (grewAsBefore) or routine jobs (routineJobs).
 */
export function worthAnIncident(series: readonly SeriesAnomaly[], rule: AnomalyRule): SeriesAnomaly[] {
  const narrowDrivers = new Set(
    series.filter((s) => s.dimension !== 'family').flatMap((s) => s.drivers.map((d) => `${s.account}:${driverId(d)}`)),
  );
  return series.filter((s) => {
    const top = s.drivers[0];
    if (!top) return false;
    if (grewAsBefore(top, rule) || routineJobs(top, rule)) return false;
    if (s.dimension !== 'family' || !top.in_narrower_series) return true;
    // a family led by a routine job: whatever else rose in it shows, and pages, in its own narrower series
    if (top.job_like) return false;
    return narrowDrivers.has(`${s.account}:${driverId(top)}`);
  });
}
