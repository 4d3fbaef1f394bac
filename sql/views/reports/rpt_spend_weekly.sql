-- One row per account, ISO week (Monday start, UTC) and family, from the family's first billed week up to the week of as_of_date (zero in weeks without cost), with the previous week's amount and the change; is_complete once the week has ended by as_of.
create or replace view rpt_spend_weekly as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

per_week as (
    select
        c.account,
        c.family,
        date_trunc('week', c.day)::date as week_start,
        sum(c.amount) as amount,
    from costs as c, clock
    where c.day <= clock.as_of_date
    group by all
),

series as (
    select account, family, min(week_start) as first_week,
    from per_week
    group by all
),

calendar as (
    select
        s.account,
        s.family,
        unnest(generate_series(s.first_week, date_trunc('week', clock.as_of_date)::date, interval 7 day))::date
            as week_start,
    from series as s, clock
),

filled as (
    select
        cal.account,
        cal.week_start,
        cal.family,
        coalesce(p.amount, 0)::decimal(38,6) as amount,
    from calendar as cal
    left join per_week as p using (account, family, week_start)
),

compared as (
    select
        *,
        lag(amount) over (partition by account, family order by week_start) as previous_amount,
    from filled
),

final as (
    select
        c.account,
        c.week_start,
        c.family,
        c.amount,
        c.previous_amount,
        c.amount - c.previous_amount as change_amount,
        case
            when c.previous_amount <> 0
                then round((c.amount - c.previous_amount) / c.previous_amount * 100, 4)::decimal(18,4)
        end as change_pct,
        c.week_start + 7 <= clock.as_of_date as is_complete,
    from compared as c, clock
)

select * from final;
