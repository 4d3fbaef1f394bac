-- A table macro: one row per row of the relation named `spans` and version of the relation named `versions` whose
-- validity overlaps the row's span – the row's columns with span_from and span_to narrowed to that version, then the
-- version's own columns as they were then. `spans` holds stretches of an inventory timeline (account, span_from,
-- span_to and the column named by `key`, …); `versions` the versions of what that column links to (account, the
-- `key` column, valid_from, valid_to and the columns to bring, nothing else). Stretches are half-open [from, to), so
-- two overlap when each begins before the other ends; a row with no such version keeps its span, the version's
-- columns null. The as-of join of every timeline – a Serverless endpoint's GraphQL versions, a template's
-- (int_template_spans_in), a GPU type's (int_template_gpu_spans_in) – said once.
create or replace macro int_version_spans_in(spans, versions, key) as table
with keyed_spans as (
    select *, columns(c -> c = key) as version_key,
    from query_table(spans)
),

-- the key under one name, without the version's copy of it (the span has its own)
keyed_versions as (
    select columns(c -> c = key) as version_key, columns(c -> c <> key),
    from query_table(versions)
)

select
    s.* exclude (version_key) replace (
        greatest(s.span_from, coalesce(v.valid_from, s.span_from)) as span_from,
        least(s.span_to, coalesce(v.valid_to, s.span_to)) as span_to
    ),
    v.* exclude (account, version_key, valid_from, valid_to),
from keyed_spans as s
left join keyed_versions as v
    on v.account = s.account
    and v.version_key = s.version_key
    and v.valid_from < s.span_to
    and s.span_from < v.valid_to;
