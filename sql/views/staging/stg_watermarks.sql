-- One row per account, source and bucket size that gpuledger has loaded (_meta_watermarks): how far the loaded
-- history reaches, which buckets are final, when the source last loaded and in which run; bucket_size is null for
-- the inventory.
create or replace view stg_watermarks as
with source as (
    select * from _meta_watermarks
),

final as (
    select
        account,
        source,
        nullif(bucket_size, '') as bucket_size,
        loaded_from,
        loaded_through,
        complete_through,
        last_success_at,
        last_run_id,
    from source
)

select * from final;
