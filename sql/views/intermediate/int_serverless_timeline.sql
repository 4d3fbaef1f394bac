-- One row per Serverless endpoint and stretch of time in which its name, GPU pools and template link stay the same:
-- v2 endpoint versions intersected with the GraphQL versions (the only endpoint → template link) and the template's
-- versions.
create or replace view int_serverless_timeline as
with endpoints as (
    select * from stg_endpoints
),

graphql_endpoints as (
    select * from stg_graphql_endpoints
),

current_gpu_types as (
    select * from stg_gpu_types where is_current
),

-- an endpoint that only GraphQL knows still gets its name and template
base as (
    select
        account, endpoint_id, endpoint_name, gpu_pools, gpu_count, data_center_ids, created_at, deleted_at,
        valid_from, valid_to,
    from endpoints
    union all
    select
        account, endpoint_id, endpoint_name, gpu_pools, null, []::varchar[], null, deleted_at,
        valid_from, valid_to,
    from graphql_endpoints as g
    where not exists (
        select 1 from endpoints as e where e.account = g.account and e.endpoint_id = g.endpoint_id
    )
),

spans as (
    select *, valid_from as span_from, valid_to as span_to,
    from base
),

-- the GraphQL version (the template link, the pools it names) as it was in each stretch (int_version_spans_in)
graphql_versions as (
    select account, endpoint_id, valid_from, valid_to, template_id, gpu_pools as graphql_gpu_pools,
    from graphql_endpoints
),

with_graphql as (
    select * from int_version_spans_in(spans, graphql_versions, 'endpoint_id')
),

-- and the template's versions within that (int_template_spans_in)
with_template as (
    select * from int_template_spans_in(with_graphql)
),

-- Serverless bills per endpoint, not per GPU, and workers go to the preferred (first) pool first: the GPU type is
-- that pool's only catalog type when it has exactly one (AMPERE_16 → RTX A4000), else the pool id itself (ADA_24)
pools as (
    select
        *,
        case when len(gpu_pools) > 0 then gpu_pools else coalesce(graphql_gpu_pools, []::varchar[]) end as pools,
    from with_template
),

single_type_pools as (
    select account, pool, min(gpu_type_id) as gpu_type_id, min(gpu_type_name) as gpu_type_name,
    from current_gpu_types
    where pool is not null
    group by account, pool
    having count(*) = 1
),

typed as (
    select
        p.*,
        coalesce(s.gpu_type_id, p.pools[1]) as gpu_type_id,
        coalesce(s.gpu_type_name, p.pools[1] || ' pool') as gpu_type_name,
    from pools as p
    left join single_type_pools as s
        on s.account = p.account and s.pool = p.pools[1]
),

stretches as (
    select
        account,
        'serverless' as family,
        endpoint_id as resource_id,
        span_from as valid_from,
        endpoint_name as resource_name,
        'serverless_endpoint' as resource_type,
        gpu_type_id,
        gpu_type_name,
        gpu_count,
        null::varchar as cloud,
        case when len(data_center_ids) = 1 then data_center_ids[1] end as data_center_id,
        template_id,
        template_name,
        endpoint_id,
        endpoint_name,
        created_at,
        deleted_at,
    from typed
),

-- attribution (the template link only GraphQL gives) and status (int_timeline_status_in)
final as (
    select * from int_timeline_status_in(stretches, 'graphql')
)

select * from final;
