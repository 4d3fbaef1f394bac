-- One row per partition (account, family, month) of a staged lake table ($staged): its rows, its amount sum and a
-- content fingerprint – the order-independent sum of every row's hash over the columns a Parquet file holds (the
-- partition keys live in its path). An export rewrites a file only when its partition's fingerprint changed.
with staged as (
    select * from query_table($staged)
),

final as (
    select
        account,
        family,
        month,
        count(*) as row_count,
        sum(amount)::varchar as amount,
        -- HUGEINT: a sum of 64-bit hashes cannot overflow below 2^64 rows
        sum(hash(*columns(* exclude (account, family, month)))::hugeint)::varchar as fingerprint,
    from staged
    group by account, family, month
)

select * from final
order by account, family, month
