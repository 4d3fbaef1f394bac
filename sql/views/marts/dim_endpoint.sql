-- One row per Serverless endpoint: its latest v2 settings (workers, GPU pools) with the template link from the
-- GraphQL list, and the GPU type cost attributes it to (the pool's single catalog type, else the pool ids).
create or replace view dim_endpoint as
with endpoints as (
    select * from int_endpoints
),

final as (
    select * from endpoints
)

select * from final;
