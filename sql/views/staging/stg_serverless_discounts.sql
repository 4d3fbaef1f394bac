-- One row per version of the account's Serverless discount (GraphQL serverlessDiscount, billing-api-v2.md §4):
-- stored and labelled, never used to re-price (whether the factor is a multiplier or a fraction off is
-- undocumented).

-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.
create or replace view stg_serverless_discounts as
with source as (
    select * from stg_inventory_versions_in('serverless_discount')
),

renamed as (
    select
        account,
        id as discount_id,
        try_cast(doc->>'discountFactor' as decimal(18,6)) as discount_factor,
        doc->>'type' as discount_type,
        try_cast(doc->>'expirationDate' as timestamptz) as expires_at,
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
