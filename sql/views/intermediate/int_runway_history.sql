-- One row per account and prepaid-balance observation (one per observed_at; the latest load wins): the balance and
-- the platform's spend rate as observed, and the runway they gave then, computed as rpt_runway computes it for an
-- observed (not estimated) balance – runway_hours = balance ÷ spend_per_hour, runs_out_at = observed_at + runway,
-- spend_limit_used_pct = spend as % of the hourly limit. day is the UTC day of observed_at. The history behind
-- rpt_runway's single latest row, for charts of runway over time. billing_model is the account's as rpt_runway
-- decides it now (int_runway_billing_model); a post-paid account has no runway, so its runway_hours and
-- runs_out_at are null at every observation. What rpt_runway_history shows.
create or replace view int_runway_history as
with observations as (
    select * from stg_balance_observations
),

billing_models as (
    select * from int_runway_billing_model
),

latest_per_moment as (
    select *
    from observations
    qualify row_number() over (partition by account, observed_at order by load_id desc) = 1
),

shaped as (
    select
        o.account,
        (timezone('UTC', o.observed_at))::date as day,
        -- observed_at, balance, spend_per_hour, spend_limit_per_hour, runway_hours, runs_out_at
        unnest(int_observation_runway(o.observed_at, o.balance, o.spend_per_hour, o.spend_limit_per_hour)),
        int_spend_limit_used_pct(o.spend_per_hour, o.spend_limit_per_hour) as spend_limit_used_pct,
        coalesce(b.billing_model, 'prepaid') as billing_model,
    from latest_per_moment as o
    left join billing_models as b using (account)
),

-- an invoiced balance does not run out (int_runway): no runway at any observation
final as (
    select * replace (
        case when billing_model = 'postpaid' then null else runway_hours end as runway_hours,
        case when billing_model = 'postpaid' then null else runs_out_at end as runs_out_at,
    )
    from shaped
)

select * from final;
