-- One row per version of a Serverless endpoint as the deprecated GraphQL API lists it (billing-api-v2.md §4): the
-- only source of the endpoint → template link. Versions tile time from -infinity to infinity.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_graphql_endpoints as
with source as (
    select * from stg_inventory_versions_in('graphql_endpoint')
),

renamed as (
    select
        account,
        id as endpoint_id,
        doc->>'name' as endpoint_name,
        nullif(doc->>'templateId', '') as template_id,
        -- a comma-separated list of pool ids in GraphQL
        list_filter(string_split(coalesce(doc->>'gpuIds', ''), ','), x -> trim(x) <> '') as gpu_pools,
        try_cast(doc->>'workersMin' as integer) as workers_min,
        try_cast(doc->>'workersMax' as integer) as workers_max,
        try_cast(doc->>'idleTimeout' as integer) as idle_timeout_s,
        nullif(doc->>'networkVolumeId', '') as network_volume_id,
        doc->>'scalerType' as scaler_type,
        try_cast(doc->>'scalerValue' as integer) as scaler_value,
        nullif(doc->>'locations', '') as locations,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
