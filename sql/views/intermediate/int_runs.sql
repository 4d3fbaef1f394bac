-- One row per run of a gpuledger command that writes (sync, run, alerts, …): what ran and when, how it ended, what
-- it fetched and the errors it met.
create or replace view int_runs as
with runs as (
    select * from stg_runs
),

final as (
    select * from runs
)

select * from final;
