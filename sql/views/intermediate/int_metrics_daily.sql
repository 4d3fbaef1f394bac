-- One row per account, UTC day, metric and scope: the denominators of unit costs. Imported business metrics
-- (stg_metrics, estimated = false); jobs_completed and jobs_failed per `endpoint:<name>` from the queue API's
-- /health samples (int_queue_jobs_daily) and gpu_hours per account, `family:`, `gpuType:` and Serverless
-- `endpoint:` (fct_gpu_hours_daily), both estimated. An imported value wins over a derived one of the same day, metric
-- and scope.
create or replace view int_metrics_daily as
with imported as (
    select account, day, metric, scope, value, false as estimated, 'import' as source,
    from stg_metrics
),

jobs as (
    select account, day, metric, scope, sum(value)::decimal(38,6) as value, true as estimated, 'queue_health' as source,
    from int_queue_jobs_daily
    group by account, day, metric, scope
),

gpu_hours as (
    -- gpu_hours_daily's rows: the mart lists the table's columns
    select * from fct_gpu_hours_daily where gpu_hours is not null
),

gpu_hours_by_scope as (
    select account, day, '' as scope, gpu_hours from gpu_hours
    union all
    select account, day, 'family:' || family, gpu_hours from gpu_hours
    union all
    select account, day, 'gpuType:' || gpu_type_id, gpu_hours from gpu_hours where gpu_type_id is not null
    union all
    select account, day, 'endpoint:' || endpoint_name, gpu_hours from gpu_hours where family = 'serverless' and endpoint_name is not null
),

gpu_hour_metrics as (
    select account, day, 'gpu_hours' as metric, scope, sum(gpu_hours)::decimal(38,6) as value, true as estimated, 'gpu_hours' as source,
    from gpu_hours_by_scope
    group by account, day, scope
),

derived as (
    select * from jobs
    union all
    select * from gpu_hour_metrics
),

final as (
    select * from imported
    union all
    select d.*
    from derived as d
    anti join imported as i
        on i.account = d.account and i.day = d.day and i.metric = d.metric and i.scope = d.scope
)

select * from final;
