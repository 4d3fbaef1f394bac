-- One row per template an account has seen (GET /v2/templates): its latest version, when it was first seen and
-- whether it is gone.
create or replace view dim_template as
with templates as (
    select * from int_templates
),

final as (
    select * from templates
)

select * from final;
