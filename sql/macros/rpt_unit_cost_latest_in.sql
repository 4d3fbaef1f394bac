-- A table macro: one row per account, metric and scope with a quantity on an ended UTC day of first_day … last_day
-- (inclusive): its latest such day's cost, quantity and unit cost (rpt_unit_cost_daily), and whether that day's
-- billing is final (rpt_complete_through). The open day is left out – its cost and quantity are partial. A period
-- with no ended day yet (the 1st of the month, month to date) reads the day before it, as its day says: "No
-- quantities yet" there would read as if nothing had ever been measured. The Unit costs table of the nightly report.
create or replace macro rpt_unit_cost_latest_in(first_day, last_day) as table
with clock as (
    select * from report_clock
),

unit_costs as (
    select * from rpt_unit_cost_daily
),

complete as (
    select * from rpt_complete_through
),

-- arg_max rather than a window: DuckDB 1.5 fails to bind a QUALIFY over the unit-cost views
final as (
    select
        u.account,
        u.metric,
        arg_max(u.scope_label, u.day) as scope,
        max(u.day) as day,
        arg_max(u.cost, u.day) as cost,
        arg_max(u.quantity, u.day) as quantity,
        arg_max(u.unit_cost, u.day) as unit_cost,
        arg_max(u.unit_cost_7d, u.day) as unit_cost_7d,
        arg_max(u.quantity_basis, u.day) as quantity_basis,
        coalesce(max(u.day) <= any_value(f.last_complete_day), false) as day_final,
    from unit_costs as u
    left join complete as f on f.account = u.account
    where u.day between least(first_day, (select as_of_date from clock) - 1) and last_day
        and u.quantity > 0
        and u.day < (select as_of_date from clock)
    group by u.account, u.metric, u.scope
)

select * from final;
