-- One row per Serverless endpoint: its latest v2 settings (workers, GPU pools) with the template link from the
-- GraphQL list, and the GPU type cost attributes it to (the pool's single catalog type, else the pool ids).
create or replace view int_endpoints as
with endpoints as (
    select * from stg_endpoints where is_current
    qualify row_number() over (partition by account, endpoint_id order by valid_from desc) = 1
),

graphql_endpoints as (
    select * from stg_graphql_endpoints where is_current
    qualify row_number() over (partition by account, endpoint_id order by valid_from desc) = 1
),

timeline as (
    select * from int_serverless_timeline
),

latest_timeline as (
    select *
    from timeline
    qualify row_number() over (partition by account, resource_id order by valid_from desc) = 1
),

joined as (
    select
        coalesce(e.account, g.account) as account,
        coalesce(e.endpoint_id, g.endpoint_id) as endpoint_id,
        coalesce(e.endpoint_name, g.endpoint_name) as endpoint_name,
        e.endpoint_type,
        t.gpu_type_id,
        t.gpu_type_name,
        case when len(e.gpu_pools) > 0 then e.gpu_pools else g.gpu_pools end as gpu_pools,
        e.gpu_count,
        coalesce(e.workers_min, g.workers_min) as workers_min,
        coalesce(e.workers_max, g.workers_max) as workers_max,
        coalesce(e.idle_timeout_s, g.idle_timeout_s) as idle_timeout_s,
        g.template_id,
        t.template_name,
        case when g.template_id is not null then 'graphql' else 'unknown' end as attribution,
        e.data_center_ids,
        list_distinct(list_concat(
            coalesce(e.network_volume_ids, []::varchar[]),
            case when g.network_volume_id is not null then [g.network_volume_id] else []::varchar[] end
        )) as network_volume_ids,
        e.created_at,
        coalesce(e.deleted_at, g.deleted_at) as deleted_at,
    from endpoints as e
    full outer join graphql_endpoints as g
        on g.account = e.account and g.endpoint_id = e.endpoint_id
    left join latest_timeline as t
        on t.account = coalesce(e.account, g.account) and t.resource_id = coalesce(e.endpoint_id, g.endpoint_id)
),

final as (
    select * from joined
)

select * from final;
