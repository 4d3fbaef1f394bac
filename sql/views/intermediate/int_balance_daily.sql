-- One row per account and UTC day, from its first billed day (its first observation when no top-ups are listed) to
-- report_clock's day: balance_end = the balance at the day's end, top_ups = credits completed that day (DEBIT and
-- PAYOUT count negative), spend = what was billed that day (cost_daily). balance_basis says where balance_end comes
-- from: reconstructed (when top-ups are listed, every day before the latest observation's day: that observation
-- plus the spend since the day's end, less the top-ups since – exact once that day's billing is), observed (an
-- observation on that day: the latest one) or carried_forward (the latest earlier observation). What
-- rpt_balance_daily shows.
create or replace view int_balance_daily as
with clock as (
    select * from int_report_clock
),

observations as (
    select * from stg_balance_observations
),

top_ups as (
    select * from stg_balance_top_ups
),

daily as (
    select * from fct_cost_daily
),

first_observation as (
    select account, observed_at, balance, (timezone('UTC', observed_at))::date as day,
    from observations
    qualify row_number() over (partition by account order by observed_at, load_id) = 1
),

-- the latest observation: the balance the past is walked back from. It was read in the same sync as the latest
-- billing, so the billing since any earlier day's end is known up to it – exact where an earlier observation, read
-- while its day was still billing, is not (issue 25: a day's end is not the moment of its last observation)
latest_observation as (
    select account, observed_at, balance, (timezone('UTC', observed_at))::date as day,
    from observations
    qualify row_number() over (partition by account order by observed_at desc, load_id desc) = 1
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
        -- walking back needs both the spend and the top-ups: from the first billed day, when top-ups are listed
        case when c.account is not null then least(f.day, coalesce(sp.first_day, f.day)) else f.day end as first_day,
        greatest(l.day, clock.as_of_date) as last_day,
        c.account is not null as top_ups_listed,
    from first_observation as f
    cross join clock
    inner join latest_observation as l on l.account = f.account
    left join (select account, min(day) as first_day from spend group by all) as sp on sp.account = f.account
    left join (select distinct account from credits) as c on c.account = f.account
),

account_days as (
    select
        account,
        unnest(generate_series(first_day, last_day, interval 1 day))::date as day,
    from bounds
),

-- the latest observation's day up to the observation: its billing so far, prorated when the day goes on past it
latest_day_part as (
    select
        l.account,
        coalesce(s.amount, 0) * least(1,
            epoch(l.observed_at - l.day::timestamptz)
            / greatest(1, epoch(least(l.day::timestamptz + interval 1 day, greatest(clock.as_of, l.observed_at)) - l.day::timestamptz))
        )::decimal(18,9) as amount,
    from latest_observation as l
    cross join clock
    left join spend as s on s.account = l.account and s.day = l.day
),

-- days before the latest observation's day: walk back from it, adding back the spend and taking out the top-ups
-- since
reconstructed as (
    select
        a.account,
        a.day,
        l.balance
            + coalesce((select sum(s.amount) from spend as s where s.account = a.account and s.day > a.day and s.day < l.day), 0)
            + p.amount
            - coalesce((select sum(t.credits_amount) from top_ups as t
                        where t.account = a.account and t.completed_at >= a.day::timestamptz + interval 1 day
                          and t.completed_at <= l.observed_at), 0)
            as balance_end,
    from account_days as a
    inner join bounds as b on b.account = a.account and b.top_ups_listed
    inner join latest_observation as l on l.account = a.account and a.day < l.day
    inner join latest_day_part as p on p.account = a.account
),

-- without a top-up history nothing is walked back: each day shows its own latest observation, or the one before
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
    where not exists (select 1 from reconstructed as r where r.account = a.account and r.day = a.day)
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
