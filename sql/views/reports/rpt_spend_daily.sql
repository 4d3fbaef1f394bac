-- One row per account, UTC day and family, from the family's first billed day up to as_of_date of report_clock (zero on days without cost), with the previous day's amount and the change; is_complete once the day has ended by as_of.
create or replace view rpt_spend_daily as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

per_day as (
    select c.account, c.family, c.day, sum(c.amount) as amount,
    from costs as c, clock
    where c.day <= clock.as_of_date
    group by all
),

series as (
    select account, family, min(day) as first_day,
    from per_day
    group by all
),

calendar as (
    select
        s.account,
        s.family,
        unnest(generate_series(s.first_day, clock.as_of_date, interval 1 day))::date as day,
    from series as s, clock
),

filled as (
    select
        cal.account,
        cal.day,
        cal.family,
        coalesce(p.amount, 0)::decimal(38,6) as amount,
    from calendar as cal
    left join per_day as p using (account, family, day)
),

compared as (
    select
        *,
        lag(amount) over (partition by account, family order by day) as previous_amount,
    from filled
),

final as (
    select
        c.account,
        c.day,
        c.family,
        c.amount,
        c.previous_amount,
        c.amount - c.previous_amount as change_amount,
        case
            when c.previous_amount <> 0
                then round((c.amount - c.previous_amount) / c.previous_amount * 100, 4)::decimal(18,4)
        end as change_pct,
        c.day < clock.as_of_date as is_complete,
    from compared as c, clock
)

select * from final;
