-- One row per account, billing family, GPU key and cloud with the catalog's list price per GPU-hour (current
-- catalog, dim_gpu_type): pods at their cloud's price (SECURE, COMMUNITY), Instant Clusters at the Secure price
-- (they run in Secure Cloud), Serverless at its pool's price, keyed both by GPU type and by pool id because
-- int_serverless_timeline names a pool's GPU type only when the pool has one type.
create or replace view int_gpu_list_prices as
with gpu_types as (
    -- the catalog's own types: a pool's row (is_pool) carries the pool's price, which pool_prices derives here
    select * from int_gpu_types where not is_pool
),

-- the catalog lists a Serverless price per GPU type; a pool bills one price, the highest of its types' (the
-- pool's reference card, e.g. ADA_24 bills at the RTX 4090's price, not the L4's)
pool_prices as (
    select account, pool, max(price_serverless) as price,
    from gpu_types
    where pool is not null and price_serverless is not null
    group by account, pool
),

pod_prices as (
    select account, 'pod' as family, gpu_type_id as gpu_key, 'SECURE' as cloud, price_secure as list_unit_price,
    from gpu_types where price_secure is not null
    union all
    select account, 'pod', gpu_type_id, 'COMMUNITY', price_community,
    from gpu_types where price_community is not null
),

cluster_prices as (
    select account, 'cluster' as family, gpu_type_id as gpu_key, null::varchar as cloud, price_secure as list_unit_price,
    from gpu_types where price_secure is not null
),

serverless_prices as (
    select g.account, 'serverless' as family, g.gpu_type_id as gpu_key, null::varchar as cloud, p.price as list_unit_price,
    from gpu_types as g
    join pool_prices as p on p.account = g.account and p.pool = g.pool
    union all
    select account, 'serverless', pool, null::varchar, price,
    from pool_prices
),

final as (
    select * from pod_prices
    union all
    select * from cluster_prices
    union all
    select * from serverless_prices
)

select * from final;
