-- One row per account, source and bucket size that gpuledger has loaded (billing routes and inventory): how far the
-- history reaches, which buckets are final, and when and how the last run that touched it ended. What freshness and
-- reconciliation read about coverage.
-- The mart the report views read; computed in int_load_coverage, which reads staging.
create or replace view load_coverage as
with coverage as (
    select * from int_load_coverage
),

final as (
    select * from coverage
)

select * from final;
