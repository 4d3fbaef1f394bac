-- One row per account and template, Serverless endpoint or GPU type (dimension says which) whose month up to its
-- last ended day differs from the previous month to the same day (the open day is left out: part of a day against a
-- whole one is no change; on the 1st both are empty): rpt_by_template, rpt_by_endpoint and rpt_by_gpu_type side by
-- side, named for a reader ('(none)' where nothing explains the cost).
create or replace view rpt_top_movers as
with by_template as (
    select * from rpt_by_template
),

by_endpoint as (
    select * from rpt_by_endpoint
),

by_gpu_type as (
    select * from rpt_by_gpu_type
),

movers as (
    select 'Template' as dimension, account, coalesce(template_name, template_id, '(none)') as name,
           month_to_last_day, previous_month_to_last_day,
    from by_template
    union all
    select 'Endpoint', account, coalesce(endpoint_name, endpoint_id),
           month_to_last_day, previous_month_to_last_day,
    from by_endpoint
    union all
    select 'GPU type', account, coalesce(gpu_type_name, gpu_type_id, '(none)'),
           month_to_last_day, previous_month_to_last_day,
    from by_gpu_type
),

final as (
    select
        dimension,
        account,
        name,
        month_to_last_day,
        previous_month_to_last_day,
        month_to_last_day - previous_month_to_last_day as change_amount,
        int_change_pct(month_to_last_day, previous_month_to_last_day) as change_pct,
    from movers
    where month_to_last_day <> previous_month_to_last_day
)

select * from final;
