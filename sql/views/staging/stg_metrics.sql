-- One row per account, UTC day, metric and scope of an imported business metric (raw_metrics): its exact value and
-- the file and line it came from.
create or replace view stg_metrics as
with source as (
    select * from raw_metrics
),

final as (
    select
        account,
        day,
        metric,
        scope,
        value,
        source_file,
        source_line,
        _load_id as load_id,
        _loaded_at as loaded_at,
    from source
)

select * from final;
