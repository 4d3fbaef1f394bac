-- One row per account, metric, scope and UTC day with a quantity: the day's cost per unit (rpt_unit_cost) beside
-- its trailing 7 days (rpt_unit_cost_7d), the scope as people read it ('whole account' for the account) and whether
-- the quantity was reported (imported) or estimated (derived). Both from unit_cost_week: the day and its week in
-- one pass.
create or replace view rpt_unit_cost_daily as
with weeks as (
    select * from unit_cost_week
),

final as (
    select
        account,
        metric,
        scope,
        coalesce(nullif(scope, ''), 'whole account') as scope_label,
        day,
        cost,
        quantity,
        unit_cost,
        unit_cost_7d,
        case when estimated then 'estimated' else 'reported' end as quantity_basis,
    from weeks
)

select * from final;
