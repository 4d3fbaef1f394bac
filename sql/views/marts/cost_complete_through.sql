-- One row per account with loaded billing: complete_through, the end of the billing history that is final on every
-- billing route and bucket size gpuledger reads (the earliest complete_through of its billing watermarks – a bucket
-- after it may still be restated), and complete_through_date, the first UTC day not known final (days ending by it
-- are complete). The one answer to "is this day final" that Daily spend, the monthly sheets and the freshness table
-- share.
create or replace view cost_complete_through as
with coverage as (
    select * from int_load_coverage
),

billing as (
    -- the inventory's watermark has no bucket size: it bills nothing
    select * from coverage
    where bucket_size is not null
),

final as (
    select
        account,
        min(complete_through) as complete_through,
        timezone('UTC', min(complete_through))::date as complete_through_date,
    from billing
    group by account
)

select * from final;
