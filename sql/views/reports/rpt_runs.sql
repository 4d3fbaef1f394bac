-- One row per run of a gpuledger command that writes (sync, run, alerts, …): when it started and ended, its status
-- (running, success, partial, failed, interrupted) and the errors it met. What the data-quality alert reads about
-- the last sync.
create or replace view rpt_runs as
with runs as (
    select * from dim_run
),

final as (
    select
        run_id,
        command,
        started_at,
        finished_at,
        status,
        errors,
    from runs
)

select * from final;
