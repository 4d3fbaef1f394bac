-- One row per account, source and bucket size that gpuledger has loaded (billing routes and inventory): how far the
-- history reaches, which buckets are final, and when and how the last run that touched it ended.
create or replace view rpt_data_freshness as
with coverage as (
    select * from load_coverage
),

final as (
    select
        account,
        source,
        bucket_size,
        loaded_from,
        loaded_through,
        complete_through,
        last_success_at,
        last_run_status,
    from coverage
)

select * from final;
