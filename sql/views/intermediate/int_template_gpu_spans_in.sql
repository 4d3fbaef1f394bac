-- A table macro: one row per row of the relation named `versions` and overlapping version of its template and of its
-- GPU type – the resource's columns, template_name and gpu_type_name as they were then, and gpu_span_from, when that
-- combination began. `versions` holds an inventory timeline (account, template_id, gpu_type_id, valid_from,
-- valid_to, …); a missing template or GPU type leaves its name null and the span as it was. The as-of join of
-- int_pod_timeline and int_cluster_timeline, said once.
create or replace macro int_template_gpu_spans_in(versions) as table
with templates as (
    select * from stg_templates
),

gpu_types as (
    select * from stg_gpu_types
),

with_template as (
    select
        r.*,
        t.template_name,
        greatest(r.valid_from, coalesce(t.valid_from, r.valid_from)) as span_from,
        least(r.valid_to, coalesce(t.valid_to, r.valid_to)) as span_to,
    from query_table(versions) as r
    left join templates as t
        on t.account = r.account
        and t.template_id = r.template_id
        and t.valid_from < r.valid_to
        and r.valid_from < t.valid_to
),

final as (
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
)

select * from final;
