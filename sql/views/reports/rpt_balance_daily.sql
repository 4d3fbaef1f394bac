-- One row per account and UTC day from its first balance observation to report_clock's day: balance_end = the balance at the day's end (the latest observation on or before it, carried forward; balance_observed_at says when it was read and carried_forward that no observation fell on that day), top_ups = credits completed that day (DEBIT and PAYOUT count negative), spend = what was billed that day (cost_daily).
create or replace view rpt_balance_daily as
with clock as (
    select * from report_clock
),

observations as (
    select * from stg_balance_observations
),

top_ups as (
    select * from stg_balance_top_ups
),

daily as (
    select * from cost_daily
),

account_days as (
    select
        o.account,
        unnest(generate_series(
            min((timezone('UTC', o.observed_at))::date),
            greatest(max((timezone('UTC', o.observed_at))::date), any_value(clock.as_of_date)),
            interval 1 day
        ))::date as day,
    from observations as o, clock
    group by o.account
),

day_end as (
    select
        a.account,
        a.day,
        o.balance as balance_end,
        o.observed_at as balance_observed_at,
    from account_days as a
    asof left join observations as o
        on o.account = a.account
        and o.observed_at < a.day::timestamptz + interval 1 day
),

credits as (
    select account, (timezone('UTC', completed_at))::date as day, sum(credits_amount) as amount,
    from top_ups
    group by all
),

spend as (
    select account, day, sum(amount) as amount,
    from daily
    group by all
),

final as (
    select
        e.account,
        e.day,
        e.balance_end::decimal(18,6) as balance_end,
        coalesce(c.amount, 0)::decimal(18,6) as top_ups,
        coalesce(s.amount, 0)::decimal(18,6) as spend,
        e.balance_observed_at,
        (timezone('UTC', e.balance_observed_at))::date <> e.day as carried_forward,
    from day_end as e
    left join credits as c using (account, day)
    left join spend as s using (account, day)
)

select * from final;
