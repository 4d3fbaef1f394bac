-- One row per account and family whose aggregate-route amount and family-route sum differ by more than $tolerance
-- in a bucket of the $days days before report_clock (both routes loaded): how many buckets, the largest difference,
-- the net difference and the worst bucket.
with clock as (
    select * from report_clock
),

differing as (
    select r.*
    from rpt_reconciliation as r, clock
    where r.bucket_start >= clock.as_of - to_days($days::integer)
        and r.bucket_start < clock.as_of
        and r.aggregate_amount is not null
        and r.family_amount is not null
        and abs(r.difference) > $tolerance::decimal(18,2)
),

final as (
    select
        account,
        family,
        count(*) as buckets,
        max(abs(difference)) as largest_difference,
        sum(difference) as net_difference,
        arg_max(bucket_start, abs(difference)) as worst_bucket_start,
        arg_max(bucket_size, abs(difference)) as worst_bucket_size,
    from differing
    group by all
)

select * from final
order by account, family;
