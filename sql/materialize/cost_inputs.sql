-- One row per account and family billed in day or hour buckets: how many records the raw tables hold and their
-- total – what _meta_cost_inputs compares with, to notice a change to fct_cost_daily's inputs that no load marked.
-- Straight from the raw tables (total_amount), so that a refresh with nothing to do costs a scan of two columns.

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
with counts as (
    select account, 'pod' as family, count(*) as record_count, sum(total_amount) as total_amount,
    from raw_billing_pods
    where bucket_size in ('day', 'hour')
    group by account
    union all
    select account, 'serverless' as family, count(*) as record_count, sum(total_amount) as total_amount,
    from raw_billing_serverless
    where bucket_size in ('day', 'hour')
    group by account
    union all
    select account, 'storage' as family, count(*) as record_count, sum(total_amount) as total_amount,
    from raw_billing_network_volumes
    where bucket_size in ('day', 'hour')
    group by account
    union all
    select account, 'public_endpoint' as family, count(*) as record_count, sum(total_amount) as total_amount,
    from raw_billing_endpoints
    where bucket_size in ('day', 'hour')
    group by account
    union all
    select account, 'cluster' as family, count(*) as record_count, sum(total_amount) as total_amount,
    from raw_billing_clusters
    where bucket_size in ('day', 'hour')
    group by account
),

final as (
    select
        account,
        family,
        record_count,
        coalesce(total_amount, 0)::decimal(38,6) as total_amount,
    from counts
)

select * from final
