-- One row per account, family, resource and UTC day with cost: the day's spend over all components, with the
-- resource's names and links as of the day (template, endpoint and GPU type, ids and names). What the budget and
-- anomaly alerts read.
create or replace view rpt_spend_by_resource_daily as
with costs as (
    select * from cost_daily
),

final as (
    select
        account,
        family,
        resource_id,
        any_value(resource_name) as resource_name,
        any_value(template_id) as template_id,
        any_value(template_name) as template_name,
        any_value(endpoint_id) as endpoint_id,
        any_value(endpoint_name) as endpoint_name,
        any_value(gpu_type_id) as gpu_type_id,
        any_value(gpu_type_name) as gpu_type_name,
        day,
        sum(amount) as amount,
    from costs
    group by account, family, resource_id, day
)

select * from final;
