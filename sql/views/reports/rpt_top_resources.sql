-- One row per account and resource among the account's 100 most expensive of the current month of report_clock
-- (rank 1 = highest month to date): its latest billed names, month to date, the previous month to the same day and
-- in full, and the change.
create or replace view rpt_top_resources as
with windowed as (
    select * from cost_month_windows
),

per_resource as (
    select
        account,
        family,
        resource_id,
        arg_max(resource_name, day) as resource_name,
        arg_max(gpu_type_name, day) as gpu_type_name,
        arg_max(template_name, day) as template_name,
        arg_max(endpoint_name, day) as endpoint_name,
        -- the windows' amounts (cost_month_windows)
        sum(columns('^(month_to_date|previous_month_to_date|previous_month)$')),
    from windowed
    group by all
),

ranked as (
    select
        *,
        row_number() over (
            partition by account
            order by month_to_date desc, previous_month desc, family, resource_id
        ) as rank,
    from per_resource
),

final as (
    select
        account,
        rank,
        family,
        resource_id,
        case when family = 'public_endpoint' then 'public endpoints' else resource_name end as resource_name,
        gpu_type_name,
        template_name,
        endpoint_name,
        month_to_date,
        previous_month_to_date,
        previous_month,
        month_to_date - previous_month_to_date as change_amount,
        int_change_pct(month_to_date, previous_month_to_date) as change_pct,
    from ranked
    where rank <= 100
)

select * from final;
