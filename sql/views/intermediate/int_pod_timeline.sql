-- One row per pod and stretch of time in which its name, GPU type, template link and their names stay the same: the
-- pod's inventory versions intersected with the versions of its template and GPU type (int_template_gpu_spans_in),
-- so that cost can name a bucket as of its start.
create or replace view int_pod_timeline as
with pods as (
    select * from stg_pods
),

templates as (
    select * from stg_templates
),

template_ids as (
    select distinct account, template_id from templates
),

-- a pod's `template` normally holds the template id; a unique template name is accepted too
template_names as (
    select account, template_name, min(template_id) as template_id,
    from templates
    group by account, template_name
    having count(distinct template_id) = 1
),

-- image_match: only when exactly one template (of any version) has the pod's image
template_images as (
    select account, image, min(template_id) as template_id,
    from templates
    where image is not null
    group by account, image
    having count(distinct template_id) = 1
),

linked as (
    select
        p.*,
        coalesce(by_id.template_id, by_name.template_id, p.template_ref, by_image.template_id) as template_id,
        case
            when p.template_ref is not null then 'inventory'
            when by_image.template_id is not null then 'image_match'
            else 'unknown'
        end as attribution,
    from pods as p
    left join template_ids as by_id
        on by_id.account = p.account and by_id.template_id = p.template_ref
    left join template_names as by_name
        on by_name.account = p.account and by_name.template_name = p.template_ref
    left join template_images as by_image
        on p.template_ref is null and by_image.account = p.account and by_image.image = p.image
),

with_gpu_type as (
    select * from int_template_gpu_spans_in(linked)
),

final as (
    select
        account,
        'pod' as family,
        pod_id as resource_id,
        span_from as valid_from,
        pod_name as resource_name,
        'pod' as resource_type,
        gpu_type_id,
        gpu_type_name,
        gpu_count,
        cloud,
        data_center_id,
        template_id,
        template_name,
        null::varchar as endpoint_id,
        null::varchar as endpoint_name,
        attribution,
        status,
        created_at,
        deleted_at,
    from with_gpu_type
)

select * from final;
