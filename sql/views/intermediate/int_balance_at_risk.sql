-- One row per account and resource that the balance reaching $0 would hurt (balance-and-queue.md §2), from the
-- current inventory: a running pod without a network volume (lost: terminated with its data), a running pod with
-- one (stopped: its data stays on the volume), a network volume (at risk: keeps billing, may eventually be
-- deleted). hourly_cost is the pod's compute price per hour from the inventory (null for volumes).
create or replace view int_balance_at_risk as
with pods as (
    select * from stg_pods
    where is_current and deleted_at is null
),

volumes as (
    select * from stg_network_volumes
    where is_current and deleted_at is null
),

running_pods as (
    select
        account,
        'pod' as resource_kind,
        pod_id as resource_id,
        pod_name as resource_name,
        case when len(network_volume_ids) = 0 then 'lost' else 'stopped' end as risk,
        case
            when len(network_volume_ids) = 0 then 'terminated with its data at $0: it has no network volume'
            else 'stopped at $0; its data stays on network volume ' || array_to_string(network_volume_ids, ', ')
        end as reason,
        cost_per_hour as hourly_cost,
    from pods
    where status = 'RUNNING'
),

network_volumes as (
    select
        account,
        'network_volume' as resource_kind,
        network_volume_id as resource_id,
        network_volume_name as resource_name,
        'at_risk' as risk,
        'keeps billing after pods stop (' || coalesce(size_gb::varchar || ' GB', 'size unknown')
            || '); may eventually be deleted while the balance stays at $0' as reason,
        null::decimal(18,6) as hourly_cost,
    from volumes
),

final as (
    select * from running_pods
    union all
    select * from network_volumes
)

select * from final;
