-- One row per account and template, Serverless endpoint or GPU type (dimension says which) whose month to date differs from the previous month to the same day: rpt_by_template, rpt_by_endpoint and rpt_by_gpu_type side by side, named for a reader ('(none)' where nothing explains the cost).
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
           month_to_date, previous_month_to_date, change_amount, change_pct,
    from by_template
    union all
    select 'Endpoint', account, coalesce(endpoint_name, endpoint_id),
           month_to_date, previous_month_to_date, change_amount, change_pct,
    from by_endpoint
    union all
    select 'GPU type', account, coalesce(gpu_type_name, gpu_type_id, '(none)'),
           month_to_date, previous_month_to_date, change_amount, change_pct,
    from by_gpu_type
),

final as (
    select * from movers
    where change_amount <> 0
)

select * from final;
