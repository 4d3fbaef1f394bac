-- One row per account and resource that the balance reaching $0 would hurt (balance-and-queue.md §2), from the
-- current inventory: a running pod without a network volume (lost: terminated with its data), a running pod with
-- one (stopped: its data stays on the volume), a network volume (at risk: keeps billing, may eventually be
-- deleted). hourly_cost is the pod's compute price per hour from the inventory (null for volumes).
create or replace view rpt_runway_at_risk as
with at_risk as (
    select * from balance_at_risk
),

final as (
    select
        account,
        resource_kind,
        resource_id,
        resource_name,
        risk,
        reason,
        hourly_cost,
    from at_risk
)

select * from final;
