-- One row per account, bucket size, bucket start and family where the aggregate route (/v2/billing) or the family's
-- own route has a record: the aggregate's amount for the family beside the sum of the family route's records, and
-- the difference (aggregate − family; 0 when the routes agree). A route loaded for the bucket without a record
-- there answered 0; family_amount is null where the family route was not loaded for that bucket at that size,
-- aggregate_amount where the aggregate was not – such a bucket is not compared (difference null). status says
-- which: agrees (to the cent), differs, aggregate route not loaded, family route not loaded.
-- each component summed over the bucket's records first (a few rows per bucket, not one per record and component),
-- then the components added up: every non-null component of every record, zeros included – a record billed $0
-- still says its route answered for the bucket; null only where no record has any component
-- both routes' records, then summed per bucket and family side by side (null where a route has no record there)
-- a family route that returned no record for a bucket still answered for it when its watermark covers the bucket
-- (sparse responses, or a family without resources): its amount there is 0, not unknown
-- (account, source, bucket_size) is the watermarks' key: at most one coverage row per bucket, no duplicates
create or replace view rpt_reconciliation as
with reconciliation as (
    select * from route_reconciliation
),

final as (
    select * from reconciliation
)

select * from final;
