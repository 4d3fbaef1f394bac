-- One row per cost subject: a distinct combination of what allocation rules can match in cost_daily – account,
-- family, component, resource, template, endpoint, GPU type and data center, ids and names as of the cost's day –
-- under its one key, subject_id (computed once, in int_cost_attributed_in).
create or replace view int_cost_subjects as
with costs as (
    select * from fct_cost_daily
),

final as (
    -- the subject's columns are cost_daily's less what varies within a subject; one key, so any row's values
    select subject_id, any_value(columns(* exclude (subject_id, attribution, amount, day))),
    from costs
    group by subject_id
)

select * from final;
