// The days an anomaly alert fired on (its worst day, as the alert named it), from the alert history: the chart marks
// them. With as_of, only what had fired by then. With filters, only the incidents the filtered view holds: a
// family:pod view marked the days of a Serverless anomaly as if pods had spiked.
import type { Store } from '../store/database.ts';
import type { Filter } from './request.ts';

export interface AnomalyMark {
  day: string;
  titles: string[];
}

/** What an incident's alert recorded (details): the families and resources that drove it, the series it showed in. */
interface Incident {
  account: string;
  drivers?: { family?: string; resource_id?: string }[];
  series?: { dimension?: string; series_id?: string; series_name?: string }[];
}

/** Whether the incident is in the view a filter keeps: judged on what it names; what it does not name cannot rule it out. */
function keeps(incident: Incident, f: Filter): boolean {
  if (f.dimension.kind !== 'plain') return true;
  const name = f.dimension.name;
  let named: string[] | undefined;
  if (name === 'account') named = [incident.account];
  else if (name === 'family') named = incident.drivers?.flatMap((d) => (d.family ? [d.family] : []));
  else if (name === 'resource') named = incident.drivers?.flatMap((d) => (d.resource_id ? [d.resource_id] : []));
  else {
    const series = incident.series?.filter((s) => s.dimension === name);
    named = series && series.length > 0 ? series.flatMap((s) => [s.series_id ?? '', s.series_name ?? '']) : undefined;
  }
  if (named === undefined || named.length === 0) return true;
  const hit = named.includes(f.value);
  // an excluded value leaves the incident in the view when something else drove it too
  return f.exclude ? !hit || named.some((v) => v !== f.value) : hit;
}

export async function anomalyDays(store: Store, range: { from: string; to: string; filters?: readonly Filter[] }, asOf: string | undefined): Promise<AnomalyMark[]> {
  const rows = await store.all<{ day: string; title: string; account: string; details: string | null }>(
    `select distinct (details->>'day') as day, title, account, details::varchar as details
     from _meta_alert_events
     where rule = 'anomaly' and event in ('fired', 'escalated')
         and (details->>'day') between $from and $to
         and created_at <= coalesce($as_of::timestamptz, 'infinity'::timestamptz)
     order by day, title`,
    { from: range.from, to: range.to, as_of: asOf ?? null },
  );
  const byDay = new Map<string, string[]>();
  for (const r of rows) {
    const incident = { account: r.account, ...(r.details ? (JSON.parse(r.details) as Omit<Incident, 'account'>) : {}) };
    if (!(range.filters ?? []).every((f) => keeps(incident, f))) continue;
    const titles = byDay.get(r.day) ?? [];
    if (!titles.includes(r.title)) titles.push(r.title);
    byDay.set(r.day, titles);
  }
  return [...byDay].map(([day, titles]) => ({ day, titles }));
}
