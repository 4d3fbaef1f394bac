// The days an anomaly alert fired on (its worst day, as the alert named it), from the alert history: the chart marks
// them. With as_of, only what had fired by then.
import type { Store } from '../store/database.ts';

export interface AnomalyMark {
  day: string;
  titles: string[];
}

export async function anomalyDays(store: Store, range: { from: string; to: string }, asOf: string | undefined): Promise<AnomalyMark[]> {
  const rows = await store.all<{ day: string; title: string }>(
    `select distinct (details->>'day') as day, title
     from _meta_alert_events
     where rule = 'anomaly' and event in ('fired', 'escalated')
         and (details->>'day') between $from and $to
         and created_at <= coalesce($as_of::timestamptz, 'infinity'::timestamptz)
     order by day, title`,
    { from: range.from, to: range.to, as_of: asOf ?? null },
  );
  const byDay = new Map<string, string[]>();
  for (const r of rows) byDay.set(r.day, [...(byDay.get(r.day) ?? []), r.title]);
  return [...byDay].map(([day, titles]) => ({ day, titles }));
}
