-- One row per account, family, UTC day, component and resource, attributed and named as of the day's start. One bucket size per (account, family, day) (int_day_bucket_sizes), so nothing is counted twice: `day` buckets where they were extracted, else `hour` buckets rolled up to the day. Report views read this, not `cost`.
create or replace view cost_daily as
with records as (
    select * from int_billing_records where bucket_size in ('day', 'hour')
),

day_sizes as (
    select * from int_day_bucket_sizes
),

timeline as (
    select * from int_resource_timeline
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
        sum(gpu) as gpu,
        sum(cpu) as cpu,
        sum(disk) as disk,
        sum(fee) as fee,
        sum(standard) as standard,
        sum(high_performance) as high_performance,
        sum(networking) as networking,
        sum(usage) as usage,
    from records
    group by all
),

one_size_per_day as (
    select p.*
    from per_day_and_size as p
    join day_sizes as s using (account, family, day_number, bucket_size)
),

-- the family's components as rows: a family's components that do not apply are null, and UNPIVOT drops nulls
components as (
    unpivot one_size_per_day
    on gpu, cpu, disk, fee, standard, high_performance, networking, usage
    into name component value amount
),

attributed as (
    select
        c.account,
        c.family,
        c.component,
        date '1970-01-01' + c.day_number::integer as day,
        c.resource_id,
        t.resource_name,
        t.gpu_type_id,
        t.gpu_type_name,
        t.data_center_id,
        t.template_id,
        t.template_name,
        t.endpoint_id,
        t.endpoint_name,
        coalesce(t.attribution, 'unknown') as attribution,
        c.amount,
    from components as c
    -- names as of the day's start, not of each hour: the same stretch join as `cost`, at the day's start rather
    -- than the bucket's (cost's rows are per bucket, these per day), so it cannot simply read `cost`
    left join timeline as t
        on t.account = c.account
        and t.family = c.family
        and t.resource_id = c.resource_id
        and make_timestamptz(c.day_number * 86400000000) >= t.valid_from
        and make_timestamptz(c.day_number * 86400000000) < t.valid_to
    where c.amount <> 0
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
        day,
    from attributed
)

select * from final;
