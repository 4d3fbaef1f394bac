-- One row per cost fact of the public `cost` view – every billed amount at every extracted bucket size (filter on
-- bucket_size, or read the lake's cost_daily) – with the UTC month of its bucket: the lake's `cost` table,
-- partitioned account=/family=/month=.
with cost_facts as (
    select * from cost
),

final as (
    select
        *,
        -- the UTC month of the bucket, by integer day arithmetic (independent of the session time zone)
        strftime(date '1970-01-01' + (epoch_us(bucket_start) // 86400000000)::integer, '%Y-%m') as month,
    from cost_facts
)

select * from final
order by account, family, month, bucket_start, resource_id, component
