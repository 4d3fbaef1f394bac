-- One row per billed or inventoried resource (pod, Serverless endpoint, network volume, cluster, and one 'public
-- endpoints' line per account): its latest known names and links, status, and the first and last day it was billed.
create or replace view dim_resource as
with timeline as (
    select * from int_resource_timeline
),

records as (
    select * from int_cost_records
),

latest as (
    select * from timeline where valid_to = 'infinity'::timestamptz
),

billed as (
    select
        account,
        family,
        resource_id,
        min(bucket_start) as first_billed_at,
        max(bucket_start) as last_billed_at,
    from records
    group by all
),

joined as (
    select
        coalesce(l.account, b.account) as account,
        coalesce(l.family, b.family) as family,
        coalesce(l.resource_id, b.resource_id) as resource_id,
        case when b.family = 'public_endpoint' then 'public endpoints' else l.resource_name end as resource_name,
        coalesce(
            l.resource_type,
            case coalesce(l.family, b.family)
                when 'pod' then 'pod'
                when 'serverless' then 'serverless_endpoint'
                when 'storage' then 'network_volume'
                when 'public_endpoint' then 'public_endpoint'
                when 'cluster' then 'cluster'
            end
        ) as resource_type,
        l.gpu_type_id,
        l.gpu_type_name,
        l.gpu_count,
        l.cloud,
        l.data_center_id,
        l.template_id,
        l.template_name,
        l.endpoint_id,
        l.endpoint_name,
        coalesce(l.attribution, 'unknown') as attribution,
        l.status,
        l.created_at,
        l.deleted_at,
        (timezone('UTC', b.first_billed_at))::date as first_billed_day,
        (timezone('UTC', b.last_billed_at))::date as last_billed_day,
    from latest as l
    full outer join billed as b
        on b.account = l.account
        and b.family = l.family
        and b.resource_id = l.resource_id
),

-- attribution last
final as (
    select * exclude (attribution), attribution,
    from joined
)

select * from final;
