-- One row per grain ('day', 'week' = ISO week from Monday, 'month' = calendar month; UTC), account, family and
-- period, from the family's first billed period up to the period containing as_of_date of report_clock (zero in
-- periods without cost), with the previous period's amount (null in the family's first period) and the change (the
-- whole amount in that first period: new); is_complete once the period has ended by as_of (report_clock.open_date:
-- a closed month evaluated as of its last second has ended) and every billing route's buckets of it are final
-- (cost_complete_through – the complete-through the freshness table shows). rpt_spend_daily, rpt_spend_weekly and
-- rpt_spend_monthly are its three grains.
create or replace view spend_periods as
with clock as (
    select * from report_clock
),

costs as (
    select * from cost_daily
),

final_through as (
    select * from cost_complete_through
),

grains as (
    select * from (values
        ('day', interval 1 day),
        ('week', interval 7 day),
        ('month', interval 1 month)
    ) as g(grain, step)
),

-- to the day first: the three grains then roll up a small table instead of reading cost_daily three times
per_day as (
    select c.account, c.family, c.day, sum(c.amount) as amount,
    from costs as c, clock
    where c.day <= clock.as_of_date
    group by all
),

per_period as (
    select
        d.account,
        d.family,
        g.grain,
        date_trunc(g.grain, d.day)::date as period_start,
        sum(d.amount) as amount,
    from per_day as d, grains as g
    group by all
),

series as (
    select account, family, grain, min(period_start) as first_period,
    from per_period
    group by all
),

calendar as (
    select
        s.account,
        s.family,
        s.grain,
        g.step,
        unnest(generate_series(s.first_period, date_trunc(s.grain, clock.as_of_date)::date, g.step))::date as period_start,
    from series as s
    join grains as g using (grain)
    cross join clock
),

filled as (
    select
        cal.grain,
        cal.account,
        cal.family,
        cal.period_start,
        (cal.period_start + cal.step)::date as period_end,
        coalesce(p.amount, 0)::decimal(38,6) as amount,
    from calendar as cal
    left join per_period as p using (account, family, grain, period_start)
),

compared as (
    select
        *,
        lag(amount) over (partition by account, family, grain order by period_start) as previous_amount,
    from filled
),

final as (
    select
        c.grain,
        c.account,
        c.family,
        c.period_start,
        c.period_end,
        c.amount,
        c.previous_amount,
        -- a family's first period is new: its change is its whole amount (nothing was billed before it), so the
        -- changes of a period's rows add up to the change of its total (issue 38 §5); the percentage stays null
        c.amount - coalesce(c.previous_amount, 0) as change_amount,
        int_change_pct(c.amount, c.previous_amount) as change_pct,
        c.period_end <= clock.open_date and coalesce(c.period_end <= f.complete_through_date, false) as is_complete,
    from compared as c
    cross join clock
    left join final_through as f on f.account = c.account
)

select * from final;
