-- One row per run of a gpuledger command that writes (_meta_runs): what ran, when, how it ended, what it fetched,
-- and the errors it met.
create or replace view stg_runs as
with source as (
    select * from _meta_runs
),

final as (
    select
        run_id,
        command,
        args,
        started_at,
        finished_at,
        status,
        requests,
        retries,
        rate_limited,
        records,
        bytes,
        errors,
        summary,
    from source
)

select * from final;
