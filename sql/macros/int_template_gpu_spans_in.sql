-- A table macro: one row per row of the relation named `versions` and overlapping version of its template and of its
-- GPU type – the resource's columns, span_from and span_to (the stretch that combination held: the resource's
-- version narrowed to both), template_name and gpu_type_name as they were then. `versions` holds an inventory
-- timeline (account, template_id, gpu_type_id, valid_from, valid_to, …); a missing template or GPU type leaves its
-- name null and the span as it was. The as-of join of int_pod_timeline and int_cluster_timeline, said once (the
-- template's part: int_template_spans_in; the join itself: int_version_spans_in).
create or replace macro int_template_gpu_spans_in(versions) as table
with spans as (
    select *, valid_from as span_from, valid_to as span_to,
    from query_table(versions)
),

with_template as (
    select * from int_template_spans_in(spans)
),

gpu_types as (
    select account, gpu_type_id, valid_from, valid_to, gpu_type_name,
    from stg_gpu_types
),

final as (
    select * from int_version_spans_in(with_template, gpu_types, 'gpu_type_id')
)

select * from final;
