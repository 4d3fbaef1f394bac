// The alert state as it stood at a moment, for a back-test (`alerts --dry-run --as-of T`). _meta_alert_state holds
// only the latest state, so comparing a back-test with it "resolves" alerts that fired after T (an anomaly of
// November 16 announced as no longer true on November 12). _meta_alert_events is the state's history: every fired,
// escalated and resolved event, with the moment the rules were evaluated at (as_of) and when it was recorded
// (created_at). An alert was firing at T when the last event recorded for its key by T (created_at ≤ T) was not a
// resolution; what fired after T did not exist at T, so it cannot resolve there.
// A firing alert's level is its last fired or escalated event's (the highest announced, as persistPlan keeps it).
// Some alerts close without an event: a budget whose period ended, a per-series key an incident superseded. The
// state row says when (resolved_at), so one closed by T after its last event is not firing at T; a budget's expiry
// is in the state row's details too (the key names the period, so today's row carries the same date), and
// planEvents closes one that expired by T silently.
import type { Store } from '../store/database.ts';
import type { AlertEvent, RuleKind } from './types.ts';

/** A row of _meta_alert_state as planEvents compares with it. */
export type StateRow = {
  alert_key: string;
  rule: RuleKind;
  account: string;
  status: string;
  level: number;
  severity: AlertEvent['severity'];
  title: string;
  details: string | null;
}

export async function firingAt(store: Store, at: Date): Promise<StateRow[]> {
  return store.all<StateRow>(
    `with known as (
         select *,
                row_number() over (partition by alert_key order by created_at desc, as_of desc, event = 'resolved' desc) as nth,
         from _meta_alert_events
         where created_at <= $t::timestamptz
     ),
     firing as (
         select * from known where nth = 1 and event <> 'resolved'
     )
     select f.alert_key, f.rule, f.account, 'firing' as status, f.level, f.severity, f.title,
            (case when s.details->>'expires_at' is null then f.details::json
                  else json_merge_patch(coalesce(f.details::json, '{}'::json), json_object('expires_at', s.details->>'expires_at')) end)::varchar as details,
     from firing as f
     left join _meta_alert_state as s using (alert_key)
     -- closed without an event (a period that ended, a key an incident superseded) after it last fired, by T
     where not coalesce(s.status = 'resolved' and s.resolved_at <= $t::timestamptz and s.resolved_at >= f.created_at, false)
     order by f.alert_key`,
    { t: at.toISOString() },
  );
}
