-- One row per account and prepaid-balance observation (one per observed_at; the latest load wins): the balance and
-- the platform's spend rate as observed, and the runway they gave then, computed as rpt_runway computes it for an
-- observed (not estimated) balance – runway_hours = balance ÷ spend_per_hour, runs_out_at = observed_at + runway,
-- spend_limit_used_pct = spend as % of the hourly limit. day is the UTC day of observed_at. The history behind
-- rpt_runway's single latest row, for charts of runway over time. billing_model is the account's as rpt_runway
-- decides it now (int_runway_billing_model); a post-paid account has no runway, so its runway_hours and
-- runs_out_at are null at every observation. What rpt_runway_history shows.
-- an invoiced balance does not run out (int_runway): no runway at any observation
-- The mart the report views read; computed in int_runway_history, which reads staging.
create or replace view runway_history as
with history as (
    select * from int_runway_history
),

final as (
    select * from history
)

select * from final;
