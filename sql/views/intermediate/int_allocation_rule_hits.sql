-- One row per cost subject (int_cost_subjects) and allocation rule whose match keys all hold for it, with the
-- values that matched (matched_on) and the value the rule gives.
create or replace view int_allocation_rule_hits as
with subjects as (
    select * from int_cost_subjects
),

rules as (
    select * from stg_allocation_rules
),

globs as (
    select * from stg_allocation_rule_globs
),

-- a glob as a LIKE pattern: LIKE's own wildcards and the escape character are escaped first, then * → % and ? → _
patterns as (
    select
        category,
        rule,
        match_key,
        glob_text,
        replace(replace(replace(replace(replace(glob_text, '\', '\\'), '%', '\%'), '_', '\_'), '*', '%'), '?', '_') as pattern,
    from globs
),

rule_key_counts as (
    select category, rule, count(distinct match_key) as key_count,
    from globs
    group by all
),

-- what each match key is tried on: resource, template, endpoint and gpuType match the id or the name
keyed as (
    select
        s.subject_id,
        unnest(map_entries(map {
            'account': [s.account],
            'family': [s.family],
            'component': [s.component],
            'resource': [s.resource_id, s.resource_name],
            'template': [s.template_id, s.template_name],
            'endpoint': [s.endpoint_id, s.endpoint_name],
            'gpuType': [s.gpu_type_id, s.gpu_type_name],
            'dataCenter': [s.data_center_id],
        }), recursive := true),
    from subjects as s
),

candidates as (
    select subject_id, key as match_key, unnest(value) as candidate,
    from keyed
),

key_hits as (
    select
        c.subject_id,
        p.category,
        p.rule,
        p.match_key,
        min(c.candidate) as matched_value,
    from candidates as c
    inner join patterns as p
        on p.match_key = c.match_key
        and c.candidate like p.pattern escape '\'
    group by all
),

rule_hits as (
    select
        h.* exclude (match_key, matched_value),
        string_agg(h.match_key || '=' || h.matched_value, ', ' order by h.match_key) as matched_on,
        count(*) as keys_held,
    from key_hits as h
    group by all
),

final as (
    select
        h.* exclude (keys_held),
        r.value,
    from rule_hits as h
    inner join rule_key_counts as k
        on k.category = h.category and k.rule = h.rule
    inner join rules as r
        on r.category = h.category and r.rule = h.rule
    where h.keys_held = k.key_count
)

select * from final;
