-- One row per version of an Instant Cluster (GET /v2/clusters, billing-api-v2.md §3): typed and renamed. Versions
-- tile time from -infinity to infinity.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_clusters as
with source as (
    select * from stg_inventory_versions_in('cluster')
),

renamed as (
    select
        account,
        id as cluster_id,
        doc->>'name' as cluster_name,
        doc->>'type' as cluster_type,
        doc->>'$.compute.gpuTypeId' as gpu_type_id,
        try_cast(doc->>'$.compute.gpuCountPerPod' as integer) as gpu_count_per_pod,
        try_cast(doc->>'$.compute.podCount' as integer) as pod_count,
        doc->>'template' as template_ref,
        doc->>'dataCenterId' as data_center_id,
        try_cast(doc->>'createdAt' as timestamptz) as created_at,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
