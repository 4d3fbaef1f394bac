-- One row per GPU type in an account's catalog (GET /v2/catalog/gpus): its latest version with list prices per GPU and hour (price_secure, price_community, price_serverless).
create or replace view dim_gpu_type as
with gpu_types as (
    select * from stg_gpu_types where is_current
    qualify row_number() over (partition by account, gpu_type_id order by valid_from desc) = 1
),

final as (
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
    from gpu_types
)

select * from final;
