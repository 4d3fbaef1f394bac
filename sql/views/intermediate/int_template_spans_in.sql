-- A table macro: one row per row of the relation named `spans` and overlapping version of its template – the row's
-- columns with span_from and span_to narrowed to that version, and template_name as it was then. `spans` holds a
-- stretch of an inventory timeline (account, template_id, span_from, span_to, …); a missing template leaves the name
-- null and the span as it was. The template as-of join of every resource timeline (int_template_gpu_spans_in for
-- pods and clusters, int_serverless_timeline), said once.
create or replace macro int_template_spans_in(spans) as table
with templates as (
    select * from stg_templates
)

select
    s.* replace (
        greatest(s.span_from, coalesce(t.valid_from, s.span_from)) as span_from,
        least(s.span_to, coalesce(t.valid_to, s.span_to)) as span_to
    ),
    t.template_name,
from query_table(spans) as s
left join templates as t
    on t.account = s.account
    and t.template_id = s.template_id
    and t.valid_from < s.span_to
    and s.span_from < t.valid_to;
