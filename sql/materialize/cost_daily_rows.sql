-- The rows of fct_cost_daily (cost_daily) for the days whose buckets start in [$range_from, $range_to):
-- int_cost_attributed_in at grain 'day', in the table's column order (which is int_cost_attributed_in's). A refresh
-- passes the smallest range that holds every changed day, so only those days' raw rows are read; a back-test passes
-- an unbounded one.
with attributed as (
    select * from int_cost_attributed_in('day', $range_from::timestamptz, $range_to::timestamptz)
),

final as (
    -- the attributed columns in their own order, which is the table's: a column added there and not to the table
    -- fails the insert rather than landing in the wrong place
    select
        * exclude (grain, bucket_size, bucket_start, bucket_end, valid_from, valid_to, subject_id),
        date '1970-01-01' + (epoch_us(bucket_start) // 86400000000)::integer as day,
        subject_id,
    from attributed
)

select * from final
