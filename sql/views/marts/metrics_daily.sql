-- One row per account, UTC day, metric and scope: the denominators of unit costs. Imported business metrics
-- (stg_metrics, estimated = false); jobs_completed and jobs_failed per `endpoint:<name>` from the queue API's
-- /health samples (int_queue_jobs_daily) and gpu_hours per account, `family:`, `gpuType:` and Serverless
-- `endpoint:` (gpu_hours_daily), both estimated. An imported value wins over a derived one of the same day, metric
-- and scope.
create or replace view metrics_daily as
with metrics as (
    select * from int_metrics_daily
),

final as (
    select * from metrics
)

select * from final;
