-- One row per Instant Cluster and stretch of time in which its name, GPU type and template link stay the same:
-- cluster versions intersected with the versions of its template and GPU type (int_template_gpu_spans_in).
create or replace view int_cluster_timeline as
with clusters as (
    select * from stg_clusters
),

linked as (
    select *, template_ref as template_id,
    from clusters
),

with_gpu_type as (
    select * from int_template_gpu_spans_in(linked)
),

stretches as (
    select
        account,
        'cluster' as family,
        cluster_id as resource_id,
        span_from as valid_from,
        cluster_name as resource_name,
        'cluster' as resource_type,
        gpu_type_id,
        gpu_type_name,
        gpu_count_per_pod * pod_count as gpu_count,
        null::varchar as cloud,
        data_center_id,
        template_id,
        template_name,
        null::varchar as endpoint_id,
        null::varchar as endpoint_name,
        created_at,
        deleted_at,
    from with_gpu_type
),

-- attribution (the cluster's own template link) and status (int_timeline_status_in)
final as (
    select * from int_timeline_status_in(stretches, 'inventory')
)

select * from final;
