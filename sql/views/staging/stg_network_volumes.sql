-- One row per version of a network volume (GET /v2/network-volumes, billing-api-v2.md §3): typed and renamed.
-- Versions tile time from -infinity to infinity.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_network_volumes as
with source as (
    select * from stg_inventory_versions_in('network_volume')
),

renamed as (
    select
        account,
        id as network_volume_id,
        doc->>'name' as network_volume_name,
        try_cast(doc->>'size' as integer) as size_gb,
        doc->>'dataCenter' as data_center_id,
        doc->>'type' as volume_type,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
