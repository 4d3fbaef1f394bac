-- One row per account, calendar month (UTC) and family, from the family's first billed month up to the month of as_of_date (zero in months without cost), with the previous month's amount and the change; is_complete once the month has ended by as_of.
create or replace view rpt_spend_monthly as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

per_month as (
    select
        c.account,
        c.family,
        date_trunc('month', c.day)::date as month,
        sum(c.amount) as amount,
    from costs as c, clock
    where c.day <= clock.as_of_date
    group by all
),

series as (
    select account, family, min(month) as first_month,
    from per_month
    group by all
),

calendar as (
    select
        s.account,
        s.family,
        unnest(generate_series(s.first_month, clock.month_start, interval 1 month))::date as month,
    from series as s, clock
),

filled as (
    select
        cal.account,
        cal.month,
        cal.family,
        coalesce(p.amount, 0)::decimal(38,6) as amount,
    from calendar as cal
    left join per_month as p using (account, family, month)
),

compared as (
    select
        *,
        lag(amount) over (partition by account, family order by month) as previous_amount,
    from filled
),

final as (
    select
        c.account,
        c.month,
        c.family,
        c.amount,
        c.previous_amount,
        c.amount - c.previous_amount as change_amount,
        case
            when c.previous_amount <> 0
                then round((c.amount - c.previous_amount) / c.previous_amount * 100, 4)::decimal(18,4)
        end as change_pct,
        c.month < clock.month_start as is_complete,
    from compared as c, clock
)

select * from final;
