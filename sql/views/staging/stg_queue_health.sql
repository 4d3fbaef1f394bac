-- One row per sample of a Serverless endpoint's queue /health (raw_queue_health, balance-and-queue.md §3): the job
-- counters and worker counts as the queue API reported them at sampled_at.
create or replace view stg_queue_health as
with source as (
    select * from raw_queue_health
),

final as (
    select
        account,
        endpoint_id,
        endpoint_name,
        sampled_at,
        completed,
        failed,
        in_progress,
        in_queue,
        retried,
        workers,
        _load_id as load_id,
        _extracted_at as extracted_at,
    from source
)

select * from final;
