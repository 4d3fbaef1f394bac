-- One row per account and prepaid-balance observation (one per observed_at; the latest load wins): the balance and
-- the platform's spend rate as observed, and the runway they gave then, computed as rpt_runway computes it for an
-- observed (not estimated) balance – runway_hours = balance ÷ spend_per_hour, runs_out_at = observed_at + runway,
-- spend_limit_used_pct = spend as % of the hourly limit. day is the UTC day of observed_at. The history behind
-- rpt_runway's single latest row, for charts of runway over time. What rpt_runway_history shows.
create or replace view int_runway_history as
with observations as (
    select * from stg_balance_observations
),

latest_per_moment as (
    select *
    from observations
    qualify row_number() over (partition by account, observed_at order by load_id desc) = 1
),

final as (
    select
        account,
        (timezone('UTC', observed_at))::date as day,
        -- observed_at, balance, spend_per_hour, spend_limit_per_hour, runway_hours, runs_out_at
        unnest(int_observation_runway(observed_at, balance, spend_per_hour, spend_limit_per_hour)),
        int_spend_limit_used_pct(spend_per_hour, spend_limit_per_hour) as spend_limit_used_pct,
    from latest_per_moment
)

select * from final;
