-- One row per version of a template (GET /v2/templates, billing-api-v2.md §3): typed and renamed. Versions tile
-- time from -infinity to infinity.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_templates as
with source as (
    select * from stg_inventory_versions_in('template')
),

renamed as (
    select
        account,
        id as template_id,
        doc->>'name' as template_name,
        doc->>'image' as image,
        doc->>'category' as category,
        try_cast(doc->>'serverless' as boolean) as is_serverless,
        try_cast(doc->>'public' as boolean) as is_public,
        try_cast(doc->>'disk' as integer) as disk_gb,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
