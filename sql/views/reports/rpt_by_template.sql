-- One row per account and template that had cost in the current or previous month of report_clock, plus a '(none)'
-- row for cost no template could be linked to: month to date, the previous month to the same day and in full, and
-- the change. attribution lists how the template was linked (inventory, graphql, image_match); then
-- month_to_last_day and previous_month_to_last_day, the same without the open day (what rpt_top_movers compares).
create or replace view rpt_by_template as
with windowed as (
    select * from int_cost_month_windows
),

templates as (
    select * from dim_template
),

per_template as (
    select
        account,
        template_id,
        arg_max(template_name, day) as billed_name,
        array_to_string(list_sort(list_distinct(list(attribution))), ', ') as attribution,
        -- the windows' amounts (int_cost_month_windows)
        sum(columns(c -> list_contains(int_month_windows(), c))),
    from windowed
    group by all
),

named as (
    select
        p.account,
        p.template_id,
        case when p.template_id is null then '(none)' else coalesce(t.template_name, p.billed_name) end as template_name,
        case when p.template_id is null then 'unknown' else p.attribution end as attribution,
        p.* exclude (account, template_id, billed_name, attribution),
    from per_template as p
    left join templates as t
        on t.account = p.account and t.template_id = p.template_id
),

-- the windows with the change between them (int_month_change_in)
final as (
    select * from int_month_change_in(named)
)

select * from final;
