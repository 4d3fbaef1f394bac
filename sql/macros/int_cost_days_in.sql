-- One row per account, family, UTC day, resource and non-zero amount component, before attribution, for the days
-- whose buckets start in [range_from, range_to): the day's billing at the one bucket size that counts for it –
-- `day` buckets where they were extracted, else `hour` buckets rolled up to the day (as int_day_bucket_sizes
-- decides) – so nothing is counted twice. A table macro rather than a view so that a writer refreshing a few days
-- filters the raw tables by bucket start (DuckDB prunes their row groups); readers call it through views with an
-- unbounded range.
create or replace macro int_cost_days_in(range_from, range_to) as table
with records as (
    select * from int_billing_records
    where bucket_size in ('day', 'hour')
        and bucket_start >= range_from
        and bucket_start < range_to
),

-- rolled up to the day before the fan-out into components: hours → days shrinks the rows 24-fold first
per_day_and_size as (
    select
        account,
        family,
        bucket_size,
        -- the UTC day by integer arithmetic: independent of the session TimeZone and far cheaper than timezone()
        epoch_us(bucket_start) // 86400000000 as day_number,
        resource_id,
        sum(columns(* exclude (account, family, bucket_size, bucket_start, bucket_end, resource_id))),
    from records
    group by all
),

-- one bucket size per account, family and day: the rule of int_day_bucket_sizes, over the rows already read
one_size_per_day as (
    select * exclude (bucket_size)
    from per_day_and_size
    qualify bucket_size = case
        when bool_or(bucket_size = 'day') over (partition by account, family, day_number) then 'day'
        else 'hour'
    end
),

-- the family's components as rows: a family's components that do not apply are null, and UNPIVOT drops nulls
components as (
    unpivot one_size_per_day
    on columns(* exclude (account, family, day_number, resource_id))
    into name component value amount
),

final as (
    select
        account,
        family,
        component,
        date '1970-01-01' + day_number::integer as day,
        resource_id,
        amount,
    from components
    where amount <> 0
)

select * from final;
