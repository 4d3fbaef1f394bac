-- One row per account, allocation category and value that had cost in the current or previous month of
-- report_clock: month to date (the open day included), the previous month to the same day of month (the whole month
-- when it is shorter) and in full, the change, and the value's share of the account's month-to-date total in the
-- category (percent).
create or replace view rpt_by_category as
with clock as (
    select * from report_clock
),

allocated as (
    select * from cost_allocated
),

windowed as (
    select
        a.account,
        a.category,
        a.value,
        a.amount,
        a.day >= clock.month_start as in_month_to_date,
        a.day < clock.month_start and a.day < clock.prev_month_start + clock.day_of_month as in_previous_month_to_date,
        a.day < clock.month_start as in_previous_month,
    from allocated as a, clock
    where a.day >= clock.prev_month_start and a.day <= clock.as_of_date
),

per_value as (
    select
        account,
        category,
        value,
        coalesce(sum(amount) filter (where in_month_to_date), 0) as month_to_date,
        coalesce(sum(amount) filter (where in_previous_month_to_date), 0) as previous_month_to_date,
        coalesce(sum(amount) filter (where in_previous_month), 0) as previous_month,
    from windowed
    group by all
),

with_totals as (
    select
        *,
        sum(month_to_date) over (partition by account, category) as category_month_to_date,
    from per_value
),

final as (
    select
        account,
        category,
        value,
        month_to_date,
        previous_month_to_date,
        previous_month,
        month_to_date - previous_month_to_date as change_amount,
        int_change_pct(month_to_date, previous_month_to_date) as change_pct,
        case
            when category_month_to_date <> 0
                then round(month_to_date / category_month_to_date * 100, 4)::decimal(18,4)
        end as share_pct,
    from with_totals
)

select * from final;
