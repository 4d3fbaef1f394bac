-- A table macro: one row per row of the relation named `spans` and overlapping version of its template – the row's
-- columns with span_from and span_to narrowed to that version, and template_name as it was then. `spans` holds a
-- stretch of an inventory timeline (account, template_id, span_from, span_to, …); a missing template leaves the name
-- null and the span as it was. The template as-of join of every resource timeline (int_template_gpu_spans_in for
-- pods and clusters, int_serverless_timeline), said once over int_version_spans_in.
create or replace macro int_template_spans_in(spans) as table
with templates as (
    select account, template_id, valid_from, valid_to, template_name,
    from stg_templates
)

select * from int_version_spans_in(spans, templates, 'template_id');
