-- One row per account: its latest prepaid-balance observation (at or before gpuledger_as_of when set) and how long
-- the money lasts. runway_hours = balance ÷ the platform's current spend per hour; runs_out_at = observed_at +
-- runway; storage_only_per_hour = what keeps billing once every pod is stopped (network volumes, stopped pods'
-- disks: int_storage_only_rate of the last complete day) and storage_runway_hours = balance ÷ that;
-- spend_limit_used_pct = current spend as % of the hourly spend limit. estimated = the balance source did not
-- answer lately (billing is known more than an hour past the observation): balance is then the last observed
-- balance less what was billed since (day amounts prorated by the hour), at the billing horizon. runway_hours is 0
-- when the balance is already out ($0 or less) and null when nothing is spent – it does not run out; runway_note
-- says which. After the required columns: billed_per_hour_24h (the last complete UTC day of billing ÷ 24: shows a
-- stale currentSpendPerHr), runway_hours_at_billed_rate and last_observed_at (the observation the row rests on);
-- then billing_model ('prepaid' or 'postpaid'), billing_basis and billing_evidence (int_runway_billing_model: which
-- observations decided) and month_to_date (the account's spend this month through report_clock's day). A post-paid
-- account has no runway – runway_hours, runs_out_at, storage_runway_hours and runway_hours_at_billed_rate are null,
-- and runway_note says "invoiced (post-paid)" and that the month-to-date spend is the figure to watch.
-- What rpt_runway shows.
-- each read of cost_daily has its own import CTE: DuckDB copies a CTE read twice in full, before any filter applies
-- only the day the runway reads (the last complete one), so the storage rate is not computed for all history
-- billing known more than an hour past the observation means the balance source did not answer since
-- an invoiced balance does not run out (a figure at or below $0 is usage not yet invoiced): no runway to show
-- The mart the report views read; computed in int_runway, which reads staging.
create or replace view account_runway as
with runway as (
    select * from int_runway
),

final as (
    select * from runway
)

select * from final;
