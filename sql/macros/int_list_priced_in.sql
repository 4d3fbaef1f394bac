-- A table macro: one row per row of the relation named `amounts` (with account, family, component, gpu_type_id and
-- cloud – the resource's cloud, null when unknown – among its columns): its columns and list_unit_price, the
-- catalog's list price per GPU-hour a GPU amount of that resource is estimated at (int_gpu_list_prices) – pods at
-- their cloud's price (Secure when unknown), clusters and Serverless at their family's –, null for other components
-- and for GPU types the catalog does not price. The price gpu_hours_daily and focus_cost divide by, said once.
create or replace macro int_list_priced_in(amounts) as table
-- the price is a GPU amount's: as a key column, so the join stays a hash join (a condition on `amounts` alone
-- in a left join's ON makes DuckDB compare every pair of rows)
with list_prices as (
    select *, 'gpu' as component,
    from int_gpu_list_prices
)

select
    a.*,
    p.list_unit_price,
from query_table(amounts) as a
left join list_prices as p
    on p.component = a.component
    and p.account = a.account
    and p.family = a.family
    and p.gpu_key = a.gpu_type_id
    and p.cloud is not distinct from (case when a.family = 'pod' then coalesce(a.cloud, 'SECURE') end);
