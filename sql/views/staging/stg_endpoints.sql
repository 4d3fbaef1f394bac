-- One row per version of a Serverless endpoint (GET /v2/serverless, billing-api-v2.md §3): typed and renamed; v2
-- carries no template id (see stg_graphql_endpoints). Versions tile time from -infinity to infinity.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_endpoints as
with source as (
    select * from stg_inventory_versions_in('endpoint')
),

renamed as (
    select
        account,
        id as endpoint_id,
        doc->>'name' as endpoint_name,
        doc->>'type' as endpoint_type,
        coalesce(json_extract_string(doc, '$.gpu.pools[*]'), []::varchar[]) as gpu_pools,
        try_cast(doc->>'$.gpu.count' as integer) as gpu_count,
        doc->>'$.cpu.id' as cpu_type_id,
        try_cast(doc->>'$.workers.min' as integer) as workers_min,
        try_cast(doc->>'$.workers.max' as integer) as workers_max,
        try_cast(doc->>'$.workers.idleTimeout' as integer) as idle_timeout_s,
        doc->>'$.scaling.type' as scaling_type,
        coalesce(json_extract_string(doc, '$.dataCenterIds[*]'), []::varchar[]) as data_center_ids,
        coalesce(json_extract_string(doc, '$.networkVolumes[*]'), []::varchar[]) as network_volume_ids,
        doc->>'flashboot' as flashboot,
        doc->>'image' as image,
        try_cast(doc->>'createdAt' as timestamptz) as created_at,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
