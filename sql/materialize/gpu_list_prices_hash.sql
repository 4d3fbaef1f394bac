-- One row: a hash of the catalog's list prices per GPU-hour (int_gpu_list_prices) – what fct_gpu_hours_daily was
-- computed under; a refresh computes every day again when the prices differ.
with prices as (
    select * from int_gpu_list_prices
),

final as (
    select md5(coalesce(string_agg(to_json(prices)::varchar, '|' order by to_json(prices)::varchar), '')) as inputs_hash,
    from prices
)

select * from final
