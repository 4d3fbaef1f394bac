-- One row per account, source and bucket size that gpuledger has loaded (billing routes and inventory): how far the
-- history reaches, which buckets are final, and when and how the last run that touched it ended. What freshness and
-- reconciliation read about coverage.
create or replace view int_load_coverage as
with watermarks as (
    select * from stg_watermarks
),

runs as (
    select * from stg_runs
),

final as (
    select
        w.account,
        w.source,
        w.bucket_size,
        w.loaded_from,
        w.loaded_through,
        w.complete_through,
        w.last_success_at,
        r.status as last_run_status,
    from watermarks as w
    left join runs as r on r.run_id = w.last_run_id
)

select * from final;
