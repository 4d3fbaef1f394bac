-- One row per Instant Cluster and stretch of time in which its name, GPU type and template link stay the same:
-- cluster versions intersected with the versions of its template and GPU type.
create or replace view int_cluster_timeline as
with clusters as (
    select * from stg_clusters
),

templates as (
    select * from stg_templates
),

gpu_types as (
    select * from stg_gpu_types
),

with_template as (
    select
        c.*,
        t.template_name,
        greatest(c.valid_from, coalesce(t.valid_from, c.valid_from)) as span_from,
        least(c.valid_to, coalesce(t.valid_to, c.valid_to)) as span_to,
    from clusters as c
    left join templates as t
        on t.account = c.account
        and t.template_id = c.template_ref
        and t.valid_from < c.valid_to
        and c.valid_from < t.valid_to
),

with_gpu_type as (
    select
        w.*,
        g.gpu_type_name,
        greatest(w.span_from, coalesce(g.valid_from, w.span_from)) as gpu_span_from,
    from with_template as w
    left join gpu_types as g
        on g.account = w.account
        and g.gpu_type_id = w.gpu_type_id
        and g.valid_from < w.span_to
        and w.span_from < g.valid_to
),

final as (
    select
        account,
        'cluster' as family,
        cluster_id as resource_id,
        gpu_span_from as valid_from,
        cluster_name as resource_name,
        'cluster' as resource_type,
        gpu_type_id,
        gpu_type_name,
        gpu_count_per_pod * pod_count as gpu_count,
        null::varchar as cloud,
        data_center_id,
        template_ref as template_id,
        template_name,
        null::varchar as endpoint_id,
        null::varchar as endpoint_name,
        case when template_ref is not null then 'inventory' else 'unknown' end as attribution,
        case when deleted_at is not null then 'DELETED' else 'ACTIVE' end as status,
        created_at,
        deleted_at,
    from with_gpu_type
)

select * from final;
