-- One row per billing record and non-zero amount component, at every extracted bucket size, attributed and named as of the bucket's start: the stretch [valid_from, valid_to) of int_resource_timeline that contains bucket_start (both null when the resource has no inventory). `cost` is its public face; focus_cost reads it too, so the as-of rule is written once.
create or replace view int_cost_attributed as
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
        t.valid_from,
        t.valid_to,
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
