-- One row per cost record and non-zero amount component whose bucket (or day) starts in [range_from, range_to),
-- attributed and named from inventory history, at two grains: 'bucket' – every billing record at every extracted
-- bucket size, named as of the bucket's start (what `cost` shows) – and 'day' – one row per UTC day, resource and
-- component at the one bucket size that counts for the day (int_cost_days), named as of the day's start (what
-- fct_cost_daily holds; bucket_size is null). valid_from/valid_to: the stretch of int_resource_timeline that
-- matched (null without inventory). subject_id: the cost subject – what allocation rules can match (account,
-- family, component, resource, template, endpoint, GPU type and data center, ids and names) – as one key, written
-- once, here (the as-of join is int_resource_at_in's). A table macro so that a writer refreshing a few days reads
-- only their rows (int_cost_days_in); views call it with an unbounded range.
create or replace macro int_cost_attributed_in(grain_of, range_from, range_to) as table
with bucket_records as (
    select * from int_cost_records
    where bucket_start >= range_from
        and bucket_start < range_to
),

day_records as (
    select * from int_cost_days_in(range_from, range_to)
    where grain_of = 'day'
),

records as (
    select
        'bucket' as grain, account, family, component, bucket_size, bucket_start, bucket_end, resource_id, amount,
    from bucket_records
    where grain_of = 'bucket'
    union all
    select
        'day' as grain, account, family, component, null::varchar as bucket_size,
        make_timestamptz((day - date '1970-01-01')::bigint * 86400000000) as bucket_start,
        make_timestamptz((day - date '1970-01-01' + 1)::bigint * 86400000000) as bucket_end,
        resource_id, amount,
    from day_records
    where grain_of = 'day'
),

-- the stretch each record's resource was in when its bucket (or day) began (int_resource_at_in)
positioned as (
    select *, bucket_start as as_of,
    from records
),

attributed as (
    select
        grain, account, family, component, bucket_size, bucket_start, bucket_end, resource_id, resource_name,
        gpu_type_id, gpu_type_name, data_center_id, template_id, template_name, endpoint_id, endpoint_name,
        coalesce(attribution, 'unknown') as attribution,
        amount, valid_from, valid_to,
    from int_resource_at_in(positioned)
),

final as (
    select
        *,
        -- JSON keeps null apart from '' and a comma inside a name apart from two names; md5 is the same in every
        -- DuckDB version, so a stored key still matches a recomputed one after an upgrade
        md5_number(to_json([
            account, family, component, resource_id, resource_name, template_id, template_name, endpoint_id,
            endpoint_name, gpu_type_id, gpu_type_name, data_center_id
        ])) as subject_id,
    from attributed
)

select * from final;
