-- A table macro: one row per row of the relation named `versions` and overlapping version of its template and of its
-- GPU type – the resource's columns, template_name and gpu_type_name as they were then, and gpu_span_from, when that
-- combination began. `versions` holds an inventory timeline (account, template_id, gpu_type_id, valid_from,
-- valid_to, …); a missing template or GPU type leaves its name null and the span as it was. The as-of join of
-- int_pod_timeline and int_cluster_timeline, said once (the template's part: int_template_spans_in).
create or replace macro int_template_gpu_spans_in(versions) as table
with spans as (
    select *, valid_from as span_from, valid_to as span_to,
    from query_table(versions)
),

with_template as (
    select * from int_template_spans_in(spans)
),

gpu_types as (
    select * from stg_gpu_types
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
