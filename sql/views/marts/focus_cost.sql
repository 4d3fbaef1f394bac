-- One row per billed amount in FinOps FOCUS 1.2 columns (all 57, the mandatory ones non-null where the spec says
-- so): the cost facts at one bucket size per account, family and UTC day – `day` buckets where extracted, else
-- `hour` buckets – so the rows add up without double counting. Costs are DECIMAL; contracted and effective cost
-- equal the billed cost (v2 billing has no unit prices or usage quantities). Tags carry the template, endpoint, GPU
-- type and attribution, and each allocation category's value (before splits). GPU rows of pods, clusters and
-- Serverless carry estimated GPU-hours as ConsumedQuantity (GPU amount ÷ the catalog list price per GPU-hour,
-- int_gpu_list_prices; gpu_hours_daily) with ListUnitPrice and ListCost = quantity × price; other rows keep
-- ListCost = billed cost.
create or replace view focus_cost as
with records as (
    select
        *,
        epoch_us(bucket_start) // 86400000000 as day_number,
    from int_cost_attributed_in('bucket', '-infinity'::timestamptz, 'infinity'::timestamptz)
    where bucket_size in ('day', 'hour')
),

day_sizes as (
    select * from int_day_bucket_sizes
),

-- tags and the description's tail are built once per stretch of the (small) timeline, not per cost row, and joined
-- to the stretch int_cost_attributed_in matched by its bounds (an equality join, not a second as-of join)
timeline as (
    select
        *,
        to_json(map_from_entries(list_filter([
            {'key': 'template_id', 'value': template_id},
            {'key': 'template', 'value': template_name},
            {'key': 'endpoint_id', 'value': endpoint_id},
            {'key': 'endpoint', 'value': endpoint_name},
            {'key': 'gpu_type', 'value': gpu_type_name},
            {'key': 'attribution', 'value': attribution},
        ], tag -> tag.value is not null))) as tags,
        ' – ' || coalesce(resource_name, resource_id) || coalesce(' (' || gpu_type_name || ')', '') as description_tail,
    from int_resource_timeline
),

-- day buckets, and hour buckets of days without day buckets; int_day_bucket_sizes has one row per key
one_size_per_day as (
    select r.*
    from records as r
    join day_sizes as d using (account, family, day_number, bucket_size)
),

-- the stretch int_cost_attributed_in matched, by its bounds: at most one match, none without inventory
described_stretch as (
    select
        r.*,
        coalesce(t.tags, '{"attribution":"unknown"}'::json) as tags,
        coalesce(t.description_tail, '') as description_tail,
        t.cloud,
    from one_size_per_day as r
    left join timeline as t using (account, family, resource_id, valid_from, valid_to)
),

-- each allocation category's value (before splits) of the row's subject, added to Tags (issue 13); no category
-- configured: no rows, Tags unchanged
allocation_tags as (
    select
        subject_id,
        to_json(map_from_entries(list({'key': category, 'value': value} order by category))) as categories,
    from int_allocation_matches
    group by subject_id
),

tagged as (
    select
        r.* replace (coalesce(json_merge_patch(r.tags, a.categories), r.tags) as tags),
    from described_stretch as r
    left join allocation_tags as a
        on a.subject_id = r.subject_id
),

components as (
    select * from dim_cost_component
),

-- the words for the family and component come from the cost model (src/model/, generated into dim_cost_component)
described as (
    select
        t.*,
        -- the calendar month of the charge in UTC, without timezone() (slow over millions of rows)
        date_trunc('month', date '1970-01-01' + t.day_number::integer) as billing_month,
        c.family_label as service_name,
        c.resource_type,
        c.component_label,
        c.focus_service_category as service_category,
        c.focus_service_subcategory as service_subcategory,
    from tagged as t
    inner join components as c
        on c.family = t.family
        and c.component = t.component
),

-- estimated GPU-hours of GPU amounts: amount ÷ list price per GPU-hour (int_list_priced_in) in integers, rounded
-- half up at 6 decimals
priced as (
    select
        *,
        int_gpu_hours((amount::decimal(38,6) * 1000000)::hugeint, (list_unit_price::decimal(38,6) * 1000000)::hugeint)
            as gpu_hours,
    from int_list_priced_in(described)
),

final as (
    select
        null::varchar as AvailabilityZone,
        amount::decimal(18,6) as BilledCost,
        account as BillingAccountId,
        account as BillingAccountName,
        'Account' as BillingAccountType,
        'USD' as BillingCurrency,
        make_timestamptz(epoch_us(billing_month + interval 1 month)) as BillingPeriodEnd,
        make_timestamptz(epoch_us(billing_month)) as BillingPeriodStart,
        null::varchar as CapacityReservationId,
        null::varchar as CapacityReservationStatus,
        'Usage' as ChargeCategory,
        null::varchar as ChargeClass,
        service_name || ' ' || component_label || description_tail as ChargeDescription,
        'Usage-Based' as ChargeFrequency,
        bucket_end as ChargePeriodEnd,
        bucket_start as ChargePeriodStart,
        null::varchar as CommitmentDiscountCategory,
        null::varchar as CommitmentDiscountId,
        null::varchar as CommitmentDiscountName,
        null::decimal(18,6) as CommitmentDiscountQuantity,
        null::varchar as CommitmentDiscountStatus,
        null::varchar as CommitmentDiscountType,
        null::varchar as CommitmentDiscountUnit,
        gpu_hours::decimal(18,6) as ConsumedQuantity,
        case when gpu_hours is not null then 'GPU-Hours' end as ConsumedUnit,
        amount::decimal(18,6) as ContractedCost,
        null::decimal(18,6) as ContractedUnitPrice,
        amount::decimal(18,6) as EffectiveCost,
        null::varchar as InvoiceId,
        'RunPod' as InvoiceIssuerName,
        coalesce(round(gpu_hours * list_unit_price, 6), amount)::decimal(18,6) as ListCost,
        list_unit_price::decimal(18,6) as ListUnitPrice,
        'Standard' as PricingCategory,
        'USD' as PricingCurrency,
        null::decimal(18,6) as PricingCurrencyContractedUnitPrice,
        amount::decimal(18,6) as PricingCurrencyEffectiveCost,
        null::decimal(18,6) as PricingCurrencyListUnitPrice,
        -- no usage quantities in v2 billing: the quantity is the charge period's length in hours
        ((epoch_us(bucket_end) - epoch_us(bucket_start)) / 3600000000)::decimal(18,6) as PricingQuantity,
        'Hours' as PricingUnit,
        'RunPod' as ProviderName,
        'RunPod' as PublisherName,
        data_center_id as RegionId,
        data_center_id as RegionName,
        resource_id as ResourceId,
        resource_name as ResourceName,
        resource_type as ResourceType,
        service_category as ServiceCategory,
        service_name as ServiceName,
        service_subcategory as ServiceSubcategory,
        gpu_type_id as SkuId,
        component as SkuMeter,
        null::varchar as SkuPriceDetails,
        null::varchar as SkuPriceId,
        null::varchar as SubAccountId,
        null::varchar as SubAccountName,
        null::varchar as SubAccountType,
        tags as Tags,
    from priced
)

select * from final;
