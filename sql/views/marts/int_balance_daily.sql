-- One row per account and UTC day, from its first billed day (its first observation when no top-ups are listed) to report_clock's day: balance_end = the balance at the day's end, top_ups = credits completed that day (DEBIT and PAYOUT count negative), spend = what was billed that day (cost_daily). balance_basis says where balance_end comes from: observed (an observation on that day), carried_forward (the latest earlier observation) or reconstructed (days before the first observation: that observation plus the spend since the day's end, less the top-ups since). What rpt_balance_daily shows.
create or replace view int_balance_daily as
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

first_observation as (
    select account, observed_at, balance, (timezone('UTC', observed_at))::date as day,
    from observations
    qualify row_number() over (partition by account order by observed_at, load_id) = 1
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

bounds as (
    select
        f.account,
        f.day as first_observed_day,
        -- walking back needs both the spend and the top-ups: from the first billed day, when top-ups are listed
        case when c.account is not null then least(f.day, coalesce(sp.first_day, f.day)) else f.day end as first_day,
        greatest(o.last_day, clock.as_of_date) as last_day,
    from first_observation as f
    cross join clock
    left join (select account, min(day) as first_day from spend group by all) as sp on sp.account = f.account
    left join (select distinct account from credits) as c on c.account = f.account
    left join (select account, max((timezone('UTC', observed_at))::date) as last_day from observations group by all) as o
        on o.account = f.account
),

account_days as (
    select
        account,
        unnest(generate_series(first_day, last_day, interval 1 day))::date as day,
    from bounds
),

-- the first observation's day up to the observation: its billing so far, prorated when the day goes on past it
first_day_part as (
    select
        f.account,
        coalesce(s.amount, 0) * least(1,
            epoch(f.observed_at - f.day::timestamptz)
            / greatest(1, epoch(least(f.day::timestamptz + interval 1 day, greatest(clock.as_of, f.observed_at)) - f.day::timestamptz))
        )::decimal(18,9) as amount,
    from first_observation as f
    cross join clock
    left join spend as s on s.account = f.account and s.day = f.day
),

-- days before the first observation: walk back from it, adding back the spend and taking out the top-ups since
reconstructed as (
    select
        a.account,
        a.day,
        f.balance
            + coalesce((select sum(s.amount) from spend as s where s.account = a.account and s.day > a.day and s.day < f.day), 0)
            + p.amount
            - coalesce((select sum(t.credits_amount) from top_ups as t
                        where t.account = a.account and t.completed_at >= a.day::timestamptz + interval 1 day
                          and t.completed_at <= f.observed_at), 0)
            as balance_end,
    from account_days as a
    inner join first_observation as f on f.account = a.account and a.day < f.day
    inner join first_day_part as p on p.account = a.account
),

observed as (
    select
        a.account,
        a.day,
        o.balance as balance_end,
        case when (timezone('UTC', o.observed_at))::date = a.day then 'observed' else 'carried_forward' end as balance_basis,
    from account_days as a
    asof inner join observations as o
        on o.account = a.account
        and o.observed_at < a.day::timestamptz + interval 1 day
),

day_end as (
    select account, day, balance_end, balance_basis from observed
    union all
    select account, day, balance_end, 'reconstructed' as balance_basis from reconstructed
),

final as (
    select
        e.account,
        e.day,
        e.balance_end::decimal(18,6) as balance_end,
        coalesce(c.amount, 0)::decimal(18,6) as top_ups,
        coalesce(s.amount, 0)::decimal(18,6) as spend,
        e.balance_basis,
    from day_end as e
    left join credits as c using (account, day)
    left join spend as s using (account, day)
)

select * from final;
