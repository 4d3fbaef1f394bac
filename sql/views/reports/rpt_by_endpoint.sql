-- One row per account and Serverless endpoint that had cost in the current or previous month of report_clock: its
-- latest name, template and workers.min, month to date, the previous month to the same day and in full, and the
-- change; then month_to_last_day and previous_month_to_last_day, the same without the open day (what rpt_top_movers
-- compares).
create or replace view rpt_by_endpoint as
with windowed as (
    select * from int_cost_month_windows
    where family = 'serverless'
),

endpoints as (
    select * from dim_endpoint
),

per_endpoint as (
    select
        account,
        resource_id as endpoint_id,
        arg_max(endpoint_name, day) as billed_name,
        arg_max(template_name, day) as billed_template_name,
        -- the windows' amounts (int_cost_month_windows)
        sum(columns(c -> list_contains(int_month_windows(), c))),
    from windowed
    group by all
),

named as (
    select
        p.account,
        p.endpoint_id,
        coalesce(e.endpoint_name, p.billed_name) as endpoint_name,
        coalesce(e.template_name, p.billed_template_name) as template_name,
        e.workers_min,
        p.* exclude (account, endpoint_id, billed_name, billed_template_name),
    from per_endpoint as p
    left join endpoints as e
        on e.account = p.account and e.endpoint_id = p.endpoint_id
),

-- the windows with the change between them (int_month_change_in)
final as (
    select * from int_month_change_in(named)
)

select * from final;
