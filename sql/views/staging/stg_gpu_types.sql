-- One row per version of a GPU type in the catalog (GET /v2/catalog/gpus, billing-api-v2.md §3) with its list
-- prices per GPU and hour. Versions tile time from -infinity to infinity.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_gpu_types as
with source as (
    select * from stg_inventory_versions_in('gpu_type')
),

renamed as (
    select
        account,
        -- kept exactly: some ids contain double spaces
        id as gpu_type_id,
        doc->>'name' as gpu_type_name,
        doc->>'pool' as pool,
        doc->>'manufacturer' as manufacturer,
        try_cast(doc->>'memory' as integer) as memory_gb,
        try_cast(doc->>'secure' as boolean) as available_secure,
        try_cast(doc->>'community' as boolean) as available_community,
        try_cast(doc->>'$.price.secure' as decimal(18,6)) as price_secure,
        try_cast(doc->>'$.price.community' as decimal(18,6)) as price_community,
        try_cast(doc->>'$.price.serverless' as decimal(18,6)) as price_serverless,
        try_cast(doc->>'$.maxCount.secure' as integer) as max_count_secure,
        try_cast(doc->>'$.maxCount.community' as integer) as max_count_community,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
