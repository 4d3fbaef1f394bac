-- One row per account, metric, scope and UTC day with a quantity: the day's cost per unit (rpt_unit_cost) beside
-- its trailing 7 days (rpt_unit_cost_7d), the scope as people read it ('whole account' for the account) and whether
-- the quantity was reported (imported) or estimated (derived).
create or replace view rpt_unit_cost_daily as
with daily as (
    select * from rpt_unit_cost
),

weekly as (
    select * from rpt_unit_cost_7d
),

final as (
    select
        d.account,
        d.metric,
        d.scope,
        coalesce(nullif(d.scope, ''), 'whole account') as scope_label,
        d.day,
        d.cost,
        d.quantity,
        d.unit_cost,
        w.unit_cost as unit_cost_7d,
        case when d.estimated then 'estimated' else 'reported' end as quantity_basis,
    from daily as d
    left join weekly as w
        on w.account = d.account
        and w.metric = d.metric
        and w.scope = d.scope
        and w.day = d.day
)

select * from final;
