-- One row per template an account has seen (GET /v2/templates): its latest version, when it was first seen and
-- whether it is gone.
create or replace view int_templates as
with templates as (
    select * from stg_templates
),

first_seen as (
    select account, template_id, min(first_seen_at) as first_seen_at,
    from templates
    group by all
),

latest as (
    select * from templates where is_current
    qualify row_number() over (partition by account, template_id order by valid_from desc) = 1
),

final as (
    select
        l.account,
        l.template_id,
        l.template_name,
        l.image,
        l.category,
        l.is_serverless,
        l.is_public,
        l.disk_gb,
        f.first_seen_at,
        l.deleted_at,
    from latest as l
    join first_seen as f using (account, template_id)
)

select * from final;
