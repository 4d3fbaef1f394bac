-- One row per network volume version: its name and data center as of each stretch of time (no template link exists
-- for storage).
create or replace view int_network_volume_timeline as
with volumes as (
    select * from stg_network_volumes
),

stretches as (
    select
        account,
        'storage' as family,
        network_volume_id as resource_id,
        valid_from,
        network_volume_name as resource_name,
        'network_volume' as resource_type,
        null::varchar as gpu_type_id,
        null::varchar as gpu_type_name,
        null::integer as gpu_count,
        null::varchar as cloud,
        data_center_id,
        null::varchar as template_id,
        null::varchar as template_name,
        null::varchar as endpoint_id,
        null::varchar as endpoint_name,
        null::timestamptz as created_at,
        deleted_at,
    from volumes
),

-- attribution ('unknown': storage links to no template) and status (int_timeline_status_in)
final as (
    select * from int_timeline_status_in(stretches, null)
)

select * from final;
