-- One row per account, series and UTC day with cost: the day's spend of each family, template, endpoint and GPU
-- type (dimension 'family', 'template', 'endpoint' or 'gpu_type'; series_id the family or the id, series_name its
-- latest name), and first_covered_day, the account's first day of synced billing – the series anomalies are scored
-- on.
create or replace view rpt_spend_by_series_daily as
with spend as (
    select * from rpt_spend_by_resource_daily
),

first_days as (
    select * from rpt_first_covered_days
),

series_days as (
    select account, 'family' as dimension, family as series_id, family as series_name, day, sum(amount) as amount,
    from spend
    group by account, family, day
    union all
    select account, 'template', template_id, max(template_name), day, sum(amount),
    from spend
    where template_id is not null
    group by account, template_id, day
    union all
    select account, 'endpoint', endpoint_id, max(endpoint_name), day, sum(amount),
    from spend
    where endpoint_id is not null
    group by account, endpoint_id, day
    union all
    select account, 'gpu_type', gpu_type_id, max(gpu_type_name), day, sum(amount),
    from spend
    where gpu_type_id is not null
    group by account, gpu_type_id, day
),

final as (
    select
        s.account,
        s.dimension,
        s.series_id,
        s.series_name,
        s.day,
        s.amount,
        f.first_covered_day,
    from series_days as s
    left join first_days as f using (account)
)

select * from final;
