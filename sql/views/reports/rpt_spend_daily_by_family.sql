-- One row per UTC day of rpt_spend_daily, all accounts together: one amount column per family in the order reports
-- show families (null on days before the family's first cost), the total and whether the day is complete. What
-- every report that shows families side by side reads; a family added to the model adds its column here.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view rpt_spend_daily_by_family as
with daily as (
    select * from rpt_spend_daily
),

final as (
    select
        day,
        sum(amount) filter (where family = 'pod') as pod,
        sum(amount) filter (where family = 'serverless') as serverless,
        sum(amount) filter (where family = 'storage') as storage,
        sum(amount) filter (where family = 'public_endpoint') as public_endpoint,
        sum(amount) filter (where family = 'cluster') as cluster,
        sum(amount) as total,
        bool_and(is_complete) as is_complete,
    from daily
    group by day
)

select * from final;
