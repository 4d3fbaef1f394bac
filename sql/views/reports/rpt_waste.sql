-- One row per finding of money spent for nothing, as of report_clock: a Serverless endpoint whose cost is almost
-- all its always-on workers.min baseline (idle_min_workers), a pod EXITED for 14+ days still paying for its volume
-- (stopped_pod_volume), a network volume no pod or endpoint mounted in the last 7 days (unattached_volume), a
-- running SECURE GPU pod at list price whose GPU is at least 20 % cheaper on COMMUNITY (cheaper_cloud).
-- monthly_cost is what the finding costs a month (for cheaper_cloud: what moving would save); finding_id is stable
-- across runs.
create or replace view rpt_waste as
with findings as (
    select * from waste_findings
),

final as (
    select
        account,
        finding_id,
        kind,
        family,
        resource_id,
        resource_name,
        monthly_cost,
        last_30_days_amount,
        reason,
    from findings
)

select * from final;
