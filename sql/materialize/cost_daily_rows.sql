-- The rows of fct_cost_daily (cost_daily) for the days whose buckets start in [$range_from, $range_to):
-- int_cost_attributed_in at grain 'day', in the table's column order. A refresh passes the smallest range that
-- holds every changed day, so only those days' raw rows are read; a back-test passes an unbounded one.
with attributed as (
    select * from int_cost_attributed_in('day', $range_from::timestamptz, $range_to::timestamptz)
),

final as (
    select
        account,
        family,
        component,
        resource_id,
        resource_name,
        gpu_type_id,
        gpu_type_name,
        data_center_id,
        template_id,
        template_name,
        endpoint_id,
        endpoint_name,
        attribution,
        amount,
        date '1970-01-01' + (epoch_us(bucket_start) // 86400000000)::integer as day,
        subject_id,
    from attributed
)

select * from final
