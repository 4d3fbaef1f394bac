-- One row per UTC day, account, family, resource and cost component: every cost of cost_daily with the names a
-- Detail sheet shows (resource, GPU type, data center, template, endpoint) and how it was attributed.
create or replace view rpt_cost_detail as
with costs as (
    select * from cost_daily
),

final as (
    select
        day,
        account,
        family,
        component,
        resource_id,
        resource_name,
        gpu_type_name,
        data_center_id,
        template_name,
        endpoint_name,
        attribution,
        amount,
    from costs
)

select * from final;
