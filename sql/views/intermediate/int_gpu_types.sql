-- One row per GPU type in an account's catalog (GET /v2/catalog/gpus), its latest version with list prices per GPU
-- and hour, plus one row per Serverless pool id that cost carries as its GPU type (a pool of several types), so
-- cost joins it on (account, gpu_type_id) without losing a dollar.
create or replace view int_gpu_types as
with gpu_types as (
    select * from stg_gpu_types where is_current
    qualify row_number() over (partition by account, gpu_type_id order by valid_from desc) = 1
),

serverless_timeline as (
    select * from int_serverless_timeline
),

catalog as (
    select
        account,
        gpu_type_id,
        gpu_type_name,
        pool,
        manufacturer,
        memory_gb,
        available_secure,
        available_community,
        price_secure,
        price_community,
        price_serverless,
        max_count_secure,
        max_count_community,
        deleted_at,
        false as is_pool,
    from gpu_types
),

-- int_serverless_timeline names an endpoint's GPU type by its first pool's id when that pool holds several catalog
-- types (ADA_24, named "ADA_24 pool"); a pool bills one price, the highest of its types' (int_gpu_list_prices)
pools as (
    select distinct t.account, t.gpu_type_id, t.gpu_type_name,
    from serverless_timeline as t
    anti join catalog as c on c.account = t.account and c.gpu_type_id = t.gpu_type_id
    where t.gpu_type_id is not null
),

pool_rows as (
    select
        p.account,
        p.gpu_type_id,
        p.gpu_type_name,
        p.gpu_type_id as pool,
        null::varchar as manufacturer,
        null::integer as memory_gb,
        null::boolean as available_secure,
        null::boolean as available_community,
        null::decimal(18,6) as price_secure,
        null::decimal(18,6) as price_community,
        max(c.price_serverless) as price_serverless,
        null::integer as max_count_secure,
        null::integer as max_count_community,
        null::timestamptz as deleted_at,
        true as is_pool,
    from pools as p
    left join catalog as c on c.account = p.account and c.pool = p.gpu_type_id
    group by all
),

final as (
    select * from catalog
    union all
    select * from pool_rows
)

select * from final;
