-- One row per account and Serverless endpoint that had cost in the current or previous month of report_clock: its
-- latest name, template and workers.min, month to date, the previous month to the same day and in full, and the
-- change; then month_to_last_day and previous_month_to_last_day, the same without the open day (what rpt_top_movers
-- compares).
create or replace view rpt_by_endpoint as
-- a Serverless row's resource is its endpoint, whether or not the inventory knew it (endpoint_id is null then)
with windowed as (
    select * replace (resource_id as endpoint_id),
    from cost_month_windows
    where family = 'serverless'
),

endpoints as (
    select * from dim_endpoint
),

-- each endpoint's windows and change, its dim_endpoint row and what its bills last called it (int_subject_months_in)
months as (
    select * from int_subject_months_in(windowed, endpoints, 'endpoint_id', {
        'endpoint_name': arg_max(endpoint_name, day),
        'template_name': arg_max(template_name, day),
    })
),

final as (
    select
        account,
        subject_key as endpoint_id,
        coalesce(subject.endpoint_name, billed.endpoint_name) as endpoint_name,
        coalesce(subject.template_name, billed.template_name) as template_name,
        subject.workers_min,
        * exclude (account, subject_key, billed, subject),
    from months
)

select * from final;
