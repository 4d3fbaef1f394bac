-- One row: a hash of the allocation rules in _meta_allocation_* (not of when they were loaded) – what
-- fct_cost_allocated was computed under; a refresh computes it again when the rules differ. yields_nothing: no
-- category is defined, so int_cost_allocated has no rows whatever the costs (every row is a cost row × a category)
-- and a refresh need not evaluate it.
with rules as (
    select 'category' as kind, to_json([category, default_value]) as entry from _meta_allocation_categories
    union all
    select 'rule', to_json([category, rule::varchar, value]) from _meta_allocation_rules
    union all
    select 'glob', to_json([category, rule::varchar, match_key, glob_text]) from _meta_allocation_rule_globs
    union all
    select 'split', to_json([category, split::varchar, from_value, method]) from _meta_allocation_splits
    union all
    select 'target', to_json([category, split::varchar, to_value, percent::varchar]) from _meta_allocation_split_targets
),

final as (
    select
        md5(coalesce(string_agg(kind || ':' || entry, '|' order by kind, entry), '')) as inputs_hash,
        count(*) filter (where kind = 'category') = 0 as yields_nothing,
    from rules
)

select * from final
