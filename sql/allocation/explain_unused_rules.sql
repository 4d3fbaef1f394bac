-- One row per allocation rule that gave its value to no cost: its category, 1-based index, value, match keys and
-- globs, and whether it matched nothing at all or only cost an earlier rule had already taken. $1: a category or
-- null for all.
with rules as (
    select * from _meta_allocation_rules
),

globs as (
    select * from _meta_allocation_rule_globs
),

hits as (
    select * from int_allocation_rule_hits
),

matches as (
    select * from int_allocation_matches
),

rule_matches as (
    select
        category,
        rule,
        string_agg(match_key || '=' || glob_text, ', ' order by match_key, glob_text) as match,
    from globs
    group by all
),

final as (
    select
        r.category,
        r.rule,
        r.value,
        g.match,
        case
            when exists (select 1 from hits as h where h.category = r.category and h.rule = r.rule)
                then 'shadowed: every cost it matches is taken by an earlier rule'
            else 'matched no cost'
        end as reason,
    from rules as r
    left join rule_matches as g
        on g.category = r.category and g.rule = r.rule
    where ($1::varchar is null or r.category = $1::varchar)
        and not exists (select 1 from matches as m where m.category = r.category and m.rule = r.rule)
)

select * from final
order by category, rule
