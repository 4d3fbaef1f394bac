-- One row per resource and stretch of time [valid_from, valid_to) in which what attribution reads from the resource
-- timeline – names, template, endpoint, GPU type and count, cloud, data center, how it was attributed – stays the
-- same: int_resource_timeline with neighbouring stretches that differ in nothing attribution reads (a status
-- change, say) merged, and a fingerprint of those fields. What _meta_timeline_snapshot keeps, to find the resources
-- whose attribution changed.
with timeline as (
    select * from int_resource_timeline
),

fingerprinted as (
    select
        account,
        family,
        resource_id,
        valid_from,
        valid_to,
        md5_number(to_json([
            resource_name, gpu_type_id, gpu_type_name, data_center_id, template_id, template_name, endpoint_id,
            endpoint_name, attribution, gpu_count::varchar, cloud
        ])) as fingerprint,
    from timeline
),

-- gaps and islands: a new island starts where the fingerprint differs from the stretch before
marked as (
    select
        *,
        case when lag(fingerprint) over by_start is distinct from fingerprint then 1 else 0 end as starts_island,
    from fingerprinted
    window by_start as (partition by account, family, resource_id order by valid_from)
),

numbered as (
    select
        *,
        sum(starts_island) over (partition by account, family, resource_id order by valid_from rows unbounded preceding) as island,
    from marked
),

final as (
    select
        account,
        family,
        resource_id,
        min(valid_from) as valid_from,
        max(valid_to) as valid_to,
        any_value(fingerprint) as fingerprint,
    from numbered
    group by account, family, resource_id, island
)

select * from final
