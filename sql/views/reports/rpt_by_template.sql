-- One row per account and template that had cost in the current or previous month of report_clock, plus a '(none)'
-- row for cost no template could be linked to: month to date, the previous month to the same day and in full, and
-- the change. attribution lists how the template was linked (inventory, graphql, image_match); then
-- month_to_last_day and previous_month_to_last_day, the same without the open day (what rpt_top_movers compares).
create or replace view rpt_by_template as
with windowed as (
    select * from cost_month_windows
),

templates as (
    select * from dim_template
),

-- each template's windows and change, its dim_template row, what its bills last called it and every way its cost was
-- linked to it (int_subject_months_in)
months as (
    select * from int_subject_months_in(windowed, templates, 'template_id', {
        'template_name': arg_max(template_name, day),
        'attribution': array_to_string(list_sort(list_distinct(list(attribution))), ', '),
    })
),

final as (
    select
        account,
        subject_key as template_id,
        case when subject_key is null then '(none)' else coalesce(subject.template_name, billed.template_name) end
            as template_name,
        case when subject_key is null then 'unknown' else billed.attribution end as attribution,
        * exclude (account, subject_key, billed, subject),
    from months
)

select * from final;
