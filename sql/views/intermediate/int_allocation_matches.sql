-- One row per cost subject (int_cost_subjects) and allocation category: the value the first matching rule gives it
-- (rule is its 1-based index) and the keys and values it matched on, or the category's default with rule and
-- matched_on null.
create or replace view int_allocation_matches as
with subjects as (
    select * from int_cost_subjects
),

categories as (
    select * from stg_allocation_categories
),

hits as (
    select * from int_allocation_rule_hits
),

first_hits as (
    select *
    from hits
    qualify row_number() over (partition by category, subject_id order by rule) = 1
),

final as (
    select
        s.subject_id,
        c.category,
        coalesce(h.value, c.default_value) as value,
        h.rule,
        h.matched_on,
    from subjects as s
    cross join categories as c
    left join first_hits as h
        on h.category = c.category
        and h.subject_id = s.subject_id
)

select * from final;
