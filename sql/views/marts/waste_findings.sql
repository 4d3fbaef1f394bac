-- One row per finding of money spent for nothing, as of report_clock (the work – cost of the last 30 days against
-- the inventory as it stood then – is in this mart; rpt_waste shows it): a Serverless endpoint whose cost is almost
-- all its always-on workers.min baseline (idle_min_workers), a pod EXITED for 14+ days still paying for its volume
-- (stopped_pod_volume), a network volume no pod or endpoint mounted in the last 7 days (unattached_volume), a
-- running SECURE GPU pod at list price whose GPU is at least 20 % cheaper on COMMUNITY (cheaper_cloud).
-- monthly_cost is what the finding costs a month (for cheaper_cloud: what moving would save); finding_id is stable
-- across runs.
-- the 30 complete days before as_of_date, per resource, day and component (cost_daily's own grain, one row each):
-- the only cost this view reads
-- inventory as it stood at as_of (int_versions_at_in: one version per object)
-- (a) idle_min_workers: workers.min > 0, and over at least 7 complete billed days of the last 14 the cost above the
-- cheapest day (the always-on baseline) is at most 5 % of the total – there is next to no traffic
-- (b) stopped_pod_volume: EXITED at as_of, no compute billed in the last 14 complete days, volume billed yesterday
-- (c) unattached_volume: billed yesterday, mounted by no pod and no endpoint version of the last 7 days
-- (d) cheaper_cloud: RUNNING on SECURE at the catalog's list price, the GPU offered on COMMUNITY for at least 20 %
-- less (and in that count), and running all of yesterday
-- The mart the report views read; computed in int_waste_findings, which reads staging.
create or replace view waste_findings as
with findings as (
    select * from int_waste_findings
),

final as (
    select * from findings
)

select * from final;
