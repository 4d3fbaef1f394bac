-- One row per account, family and UTC day billed in day or hour buckets: the one bucket size whose records count
-- for that day – `day` where day buckets were extracted, else `hour` – so that sums over days never count a day
-- twice. cost_daily and focus_cost keep only the records of this size.
create or replace view int_day_bucket_sizes as
with records as (
    select * from int_billing_records where bucket_size in ('day', 'hour')
),

sizes as (
    select
        account,
        family,
        -- the UTC day by integer arithmetic: independent of the session TimeZone and far cheaper than timezone()
        epoch_us(bucket_start) // 86400000000 as day_number,
        case when bool_or(bucket_size = 'day') then 'day' else 'hour' end as bucket_size,
    from records
    group by all
),

final as (
    select
        account,
        family,
        day_number,
        date '1970-01-01' + day_number::integer as day,
        bucket_size,
    from sizes
)

select * from final;
