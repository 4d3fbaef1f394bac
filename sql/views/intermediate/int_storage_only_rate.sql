-- One row per account and UTC day: what keeps billing per hour once every pod is stopped (balance-and-queue.md §2:
-- storage keeps billing after pods stop), read from that day's cost: network volumes (family storage) plus the disk
-- of pods already stopped (pod disk billed on a day with no compute). Running pods' own disks are left out: at $0
-- pods without a network volume are terminated, and the rest stop.
create or replace view int_storage_only_rate as
-- each read of the table has its own import CTE: DuckDB copies a CTE read twice in full, before any filter applies
with pod_costs as (
    select * from fct_cost_daily where family = 'pod'
),

volume_costs as (
    select * from fct_cost_daily where family = 'storage'
),

per_pod_day as (
    select
        account,
        resource_id,
        day,
        coalesce(sum(amount) filter (where component = 'disk'), 0) as disk_amount,
        coalesce(sum(amount) filter (where component <> 'disk'), 0) as other_amount,
    from pod_costs
    group by all
),

stopped_pod_disk as (
    select account, day, sum(disk_amount) as amount,
    from per_pod_day
    where other_amount = 0
    group by all
),

network_volumes as (
    select account, day, sum(amount) as amount,
    from volume_costs
    group by all
),

-- a union and one more aggregate rather than joins, so that a filter on the day reaches the table scans
combined as (
    select account, day, amount as network_volume_amount, 0 as stopped_pod_disk_amount, from network_volumes
    union all
    select account, day, 0, amount, from stopped_pod_disk
),

per_day as (
    select account, day, sum(network_volume_amount) as network_volume_amount, sum(stopped_pod_disk_amount) as stopped_pod_disk_amount,
    from combined
    group by all
),

final as (
    select
        account,
        day,
        network_volume_amount::decimal(18,6) as network_volume_amount,
        stopped_pod_disk_amount::decimal(18,6) as stopped_pod_disk_amount,
        ((network_volume_amount + stopped_pod_disk_amount) / 24)::decimal(18,6) as storage_only_per_hour,
    from per_day
)

select * from final;
