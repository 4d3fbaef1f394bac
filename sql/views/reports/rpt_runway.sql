-- One row per account: its latest prepaid-balance observation (at or before gpuledger_as_of when set) and how long
-- the money lasts. runway_hours = balance ÷ the platform's current spend per hour; runs_out_at = observed_at +
-- runway; storage_only_per_hour = what keeps billing once every pod is stopped (network volumes, stopped pods'
-- disks: int_storage_only_rate of the last complete day) and storage_runway_hours = balance ÷ that;
-- spend_limit_used_pct = current spend as % of the hourly spend limit. estimated = the balance source did not
-- answer lately (billing is known more than an hour past the observation): balance is then the last observed
-- balance less what was billed since (day amounts prorated by the hour), at the billing horizon. After the required
-- columns: billed_per_hour_24h (the last complete UTC day of billing ÷ 24: shows a stale currentSpendPerHr),
-- runway_hours_at_billed_rate and last_observed_at (the observation the row rests on); then runway_note,
-- billing_model ('prepaid' or 'postpaid'), billing_basis ('config', 'detected' or 'assumed'), billing_evidence (the
-- observations that decided, in words: int_runway_billing_model) and month_to_date (this month's spend through
-- report_clock's day). A post-paid (invoiced) account has no runway: the four runway columns are null and
-- runway_note reads "invoiced (post-paid)" – its month-to-date spend is the figure to watch.
create or replace view rpt_runway as
with runway as (
    select * from account_runway
),

final as (
    select * from runway
)

select * from final;
