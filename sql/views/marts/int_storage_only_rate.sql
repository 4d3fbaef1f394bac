-- One row per account and UTC day: what keeps billing per hour once every pod is stopped (balance-and-queue.md §2: storage keeps billing after pods stop), read from that day's cost: network volumes (family storage) plus the disk of pods already stopped (pod disk billed on a day with no compute). Running pods' own disks are left out: at $0 pods without a network volume are terminated, and the rest stop.
create or replace view int_storage_only_rate as
with daily as (
    select * from cost_daily
),

per_pod_day as (
    select
        account,
        resource_id,
        day,
        coalesce(sum(amount) filter (where component = 'disk'), 0) as disk_amount,
        coalesce(sum(amount) filter (where component <> 'disk'), 0) as other_amount,
    from daily
    where family = 'pod'
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
    from daily
    where family = 'storage'
    group by all
),

days as (
    select account, day from network_volumes
    union
    select account, day from stopped_pod_disk
),

final as (
    select
        d.account,
        d.day,
        coalesce(n.amount, 0)::decimal(18,6) as network_volume_amount,
        coalesce(s.amount, 0)::decimal(18,6) as stopped_pod_disk_amount,
        ((coalesce(n.amount, 0) + coalesce(s.amount, 0)) / 24)::decimal(18,6) as storage_only_per_hour,
    from days as d
    left join network_volumes as n using (account, day)
    left join stopped_pod_disk as s using (account, day)
)

select * from final;
