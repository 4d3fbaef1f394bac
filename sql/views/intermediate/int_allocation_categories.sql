-- One row per allocation category whose rules the database holds (_meta_allocation_*): its default value, how many
-- rules and splits it has, when a writing gpuledger command last wrote them (written_at) and a hash of the rules –
-- what cost_allocated was computed under. A gpuledger reader with other rules in its config answers with its own;
-- other DuckDB clients see these.
create or replace view int_allocation_categories as
with categories as (
    select * from stg_allocation_categories
),

rules as (
    select * from stg_allocation_rules
),

globs as (
    select * from stg_allocation_rule_globs
),

splits as (
    select * from stg_allocation_splits
),

rule_text as (
    select r.category, string_agg(r.rule || ':' || r.value || ':' || coalesce(g.text, ''), '|' order by r.rule) as text, count(*) as rule_count,
    from rules as r
    left join (
        select category, rule, string_agg(match_key || '=' || glob_text, ',' order by match_key, glob_text) as text,
        from globs
        group by all
    ) as g using (category, rule)
    group by r.category
),

split_counts as (
    select category, count(*) as split_count,
    from splits
    group by all
),

final as (
    select
        c.category,
        c.default_value,
        coalesce(t.rule_count, 0) as rule_count,
        coalesce(s.split_count, 0) as split_count,
        c.loaded_at as written_at,
        md5(c.default_value || '|' || coalesce(t.text, '')) as rules_hash,
    from categories as c
    left join rule_text as t using (category)
    left join split_counts as s using (category)
)

select * from final;
