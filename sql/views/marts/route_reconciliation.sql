-- One row per account, bucket size, bucket start and family where the aggregate route (/v2/billing) or the family's
-- own route has a record: the aggregate's amount for the family beside the sum of the family route's records, and
-- the difference (aggregate − family; 0 when the routes agree). A route loaded for the bucket without a record
-- there answered 0; family_amount is null where the family route was not loaded for that bucket at that size,
-- aggregate_amount where the aggregate was not – such a bucket is not compared (difference null). status says
-- which: agrees (to the cent), differs, aggregate route not loaded, family route not loaded.
create or replace view route_reconciliation as
with aggregate_records as (
    select * from int_aggregate_amounts
),

family_records as (
    select * from int_billing_records
),

components as (
    select * from dim_cost_component
),

loaded as (
    select * from int_load_coverage
),

-- each component summed over the bucket's records first (a few rows per bucket, not one per record and component),
-- then the components added up: every non-null component of every record, zeros included – a record billed $0
-- still says its route answered for the bucket; null only where no record has any component
family_sums as (
    select
        account,
        bucket_size,
        bucket_start,
        any_value(bucket_end) as bucket_end,
        family,
        sum(columns(* exclude (account, family, bucket_size, bucket_start, bucket_end, resource_id))),
    from family_records
    group by account, bucket_size, bucket_start, family
),

family_components as (
    unpivot family_sums
    on columns(* exclude (account, family, bucket_size, bucket_start, bucket_end))
    into name component value amount
),

-- both routes' records, then summed per bucket and family side by side (null where a route has no record there)
routes as (
    select 'aggregate' as route, account, bucket_size, bucket_start, bucket_end, family, amount,
    from aggregate_records
    union all
    select 'family' as route, account, bucket_size, bucket_start, bucket_end, family, amount,
    from family_components
),

joined as (
    select
        account,
        bucket_size,
        bucket_start,
        coalesce(any_value(bucket_end) filter (where route = 'aggregate'), any_value(bucket_end)) as bucket_end,
        family,
        sum(amount) filter (where route = 'aggregate') as aggregate_amount,
        sum(amount) filter (where route = 'family') as family_amount,
    from routes
    group by account, bucket_size, bucket_start, family
),

-- a family route that returned no record for a bucket still answered for it when its watermark covers the bucket
-- (sparse responses, or a family without resources): its amount there is 0, not unknown
family_sources as (
    select distinct family, source from components
),

coverage as (
    select s.family, w.account, w.bucket_size, w.loaded_from, w.loaded_through,
    from family_sources as s
    join loaded as w on w.source = s.source
),

aggregate_coverage as (
    select account, bucket_size, loaded_from, loaded_through,
    from loaded
    where source = 'aggregate'
),

-- (account, source, bucket_size) is the watermarks' key: at most one coverage row per bucket, no duplicates
covered as (
    select
        j.*,
        j.family_amount is not null or c.family is not null as family_loaded,
        j.aggregate_amount is not null or ac.account is not null as aggregate_loaded,
    from joined as j
    left join coverage as c
        on c.account = j.account
        and c.bucket_size = j.bucket_size
        and c.family = j.family
        and c.loaded_from <= j.bucket_start
        and j.bucket_end <= c.loaded_through
    left join aggregate_coverage as ac
        on ac.account = j.account
        and ac.bucket_size = j.bucket_size
        and ac.loaded_from <= j.bucket_start
        and j.bucket_end <= ac.loaded_through
),

amounts as (
    select
        account,
        bucket_size,
        bucket_start,
        family,
        case when aggregate_loaded then coalesce(aggregate_amount, 0) end::decimal(38,6) as aggregate_amount,
        case when family_loaded then coalesce(family_amount, 0) end::decimal(38,6) as family_amount,
    from covered
),

final as (
    select
        *,
        (aggregate_amount - family_amount)::decimal(38,6) as difference,
        case
            when aggregate_amount is null then 'aggregate route not loaded'
            when family_amount is null then 'family route not loaded'
            when round(aggregate_amount - family_amount, 2) = 0 then 'agrees'
            else 'differs'
        end as status,
    from amounts
)

select * from final;
