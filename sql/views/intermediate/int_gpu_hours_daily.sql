-- One row per account, family (pod, cluster, serverless), UTC day and resource with a GPU amount: estimated
-- GPU-hours = GPU amount ÷ the list price per GPU-hour (int_gpu_list_prices), running_hours = GPU-hours ÷ GPU count
-- (pod or cluster hours; Serverless worker-hours), both DECIMAL(38,6) rounded half up from exact integer division.
-- Estimates, always: v2 billing has no quantities. list_cost is GPU-hours × list price and effective_discount =
-- list_cost − billed_cost (0 up to rounding while the hours are derived from the list price itself). What
-- fct_gpu_hours_daily (gpu_hours_daily) is materialised from.
create or replace view int_gpu_hours_daily as
with gpu_cost as (
    select * from fct_cost_daily where component = 'gpu' and family in ('pod', 'cluster', 'serverless')
),

per_resource_day as (
    select
        account, family, component, day, resource_id,
        sum(amount)::decimal(38,6) as billed_cost,
        make_timestamptz((day - date '1970-01-01')::bigint * 86400000000) as as_of,
    from gpu_cost
    group by all
),

-- names, GPU count and cloud as of the day's start, as cost_daily names it (int_resource_at_in)
with_resource as (
    select * from int_resource_at_in(per_resource_day)
),

-- the list price per GPU-hour (int_list_priced_in)
priced as (
    select
        *,
        (billed_cost * 1000000)::hugeint as cost_micros,
        (list_unit_price::decimal(38,6) * 1000000)::hugeint as price_micros,
    from int_list_priced_in(with_resource)
),

-- cost ÷ price in integers (int_gpu_hours): exact, never a double
hours as (
    select
        *,
        int_gpu_hours(cost_micros, price_micros) as gpu_hours,
        case when price_micros > 0 and gpu_count > 0 then int_gpu_hours(cost_micros, price_micros * gpu_count) end
            as running_hours,
    from priced
),

final as (
    select
        account,
        family,
        day,
        resource_id,
        resource_name,
        endpoint_name,
        gpu_type_id,
        gpu_type_name,
        gpu_count,
        cloud,
        billed_cost,
        list_unit_price,
        gpu_hours,
        running_hours,
        round(gpu_hours * list_unit_price, 6)::decimal(38,6) as list_cost,
        (round(gpu_hours * list_unit_price, 6) - billed_cost)::decimal(38,6) as effective_discount,
        true as estimated,
    from hours
)

select * from final;
