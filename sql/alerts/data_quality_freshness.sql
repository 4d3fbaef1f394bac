-- One row per account, billing source and bucket size that is stale at $now: no successful sync in the $stale_hours
-- hours before $now, or data that ends more than $stale_hours hours before the newest data of any source (one
-- source falling behind the others).
with freshness as (
    select * from rpt_data_freshness where source <> 'inventory'
),

horizon as (
    select max(loaded_through) as newest from freshness
),

final as (
    select
        f.account,
        f.source,
        f.bucket_size,
        f.loaded_through,
        f.complete_through,
        f.last_success_at,
        f.last_run_status,
        case
            when f.last_success_at is null or f.last_success_at < $now::timestamptz - to_minutes(($stale_hours * 60)::bigint)
                then 'no successful sync'
            else 'behind the other sources'
        end as reason,
    from freshness as f, horizon as h
    where f.last_success_at is null
        or f.last_success_at < $now::timestamptz - to_minutes(($stale_hours * 60)::bigint)
        or f.loaded_through < h.newest - to_minutes(($stale_hours * 60)::bigint)
)

select * from final
order by account, source, bucket_size;
