-- One row per version of a pod (GET /v2/pods, billing-api-v2.md §3): typed and renamed; versions tile time from
-- -infinity (first seen) to infinity (current – also after the pod vanished from the list).

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_pods as
with source as (
    select * from stg_inventory_versions_in('pod')
),

renamed as (
    select
        account,
        id as pod_id,
        doc->>'name' as pod_name,
        doc->>'status' as status,
        doc->>'image' as image,
        -- GPU type ids keep their whitespace exactly (some contain double spaces)
        doc->>'$.gpu.id' as gpu_type_id,
        try_cast(doc->>'$.gpu.count' as integer) as gpu_count,
        doc->>'$.cpu.id' as cpu_type_id,
        try_cast(doc->>'$.cpu.vcpuCount' as integer) as vcpu_count,
        doc->>'cloud' as cloud,
        doc->>'dataCenterId' as data_center_id,
        -- null when the pod was created from a template id: the link is often missing
        doc->>'template' as template_ref,
        try_cast(doc->>'cost' as decimal(18,6)) as cost_per_hour,
        try_cast(doc->>'$.mounts.persistent.size' as integer) as volume_gb,
        coalesce(json_extract_string(doc, '$.mounts.network[*].volumeId'), []::varchar[]) as network_volume_ids,
        doc->>'$.cluster.id' as cluster_id,
        try_cast(doc->>'createdAt' as timestamptz) as created_at,
        try_cast(doc->>'startedAt' as timestamptz) as started_at,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
