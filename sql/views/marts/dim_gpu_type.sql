-- One row per GPU type in an account's catalog (GET /v2/catalog/gpus), its latest version with list prices per GPU
-- and hour, plus one row per Serverless pool id that cost carries as its GPU type (a pool of several types), so
-- cost joins it on (account, gpu_type_id) without losing a dollar.
-- int_serverless_timeline names an endpoint's GPU type by its first pool's id when that pool holds several catalog
-- types (ADA_24, named "ADA_24 pool"); a pool bills one price, the highest of its types' (int_gpu_list_prices)
create or replace view dim_gpu_type as
with gpu_types as (
    select * from int_gpu_types
),

final as (
    select * from gpu_types
)

select * from final;
