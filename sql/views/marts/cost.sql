-- One row per billing record and non-zero amount component, at every extracted bucket size (filter on bucket_size!), attributed and named as of the bucket's start from inventory history. Public interface (DESIGN.md): columns and names are stable.
create or replace view cost as
with records as (
    select * from int_cost_records
),

timeline as (
    select * from int_resource_timeline
),

-- the stretches of one resource tile all time without overlap: exactly one match per record, or none (no inventory)
attributed as (
    select
        r.account,
        r.family,
        r.component,
        r.bucket_size,
        r.bucket_start,
        r.bucket_end,
        r.resource_id,
        t.resource_name,
        t.gpu_type_id,
        t.gpu_type_name,
        t.data_center_id,
        t.template_id,
        t.template_name,
        t.endpoint_id,
        t.endpoint_name,
        coalesce(t.attribution, 'unknown') as attribution,
        r.amount,
    from records as r
    left join timeline as t
        on t.account = r.account
        and t.family = r.family
        and t.resource_id = r.resource_id
        and r.bucket_start >= t.valid_from
        and r.bucket_start < t.valid_to
),

final as (
    select * from attributed
)

select * from final;
