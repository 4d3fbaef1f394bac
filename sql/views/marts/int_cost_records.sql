-- One row per family billing record and non-zero amount component, at every extracted bucket size, before attribution: the long form of int_billing_records (totalAmount is the sum of the components, billing-api-v2.md §2, so it is not a row).
create or replace view int_cost_records as
with records as (
    select * from int_billing_records
),

components as (
    select
        account,
        family,
        bucket_size,
        bucket_start,
        bucket_end,
        resource_id,
        unnest(
            case family
                when 'pod' then [
                    {'component': 'gpu', 'amount': gpu},
                    {'component': 'cpu', 'amount': cpu},
                    {'component': 'disk', 'amount': disk},
                ]
                when 'serverless' then [
                    {'component': 'gpu', 'amount': gpu},
                    {'component': 'cpu', 'amount': cpu},
                    {'component': 'disk', 'amount': disk},
                    {'component': 'fee', 'amount': fee},
                ]
                when 'storage' then [
                    {'component': 'standard', 'amount': standard},
                    {'component': 'high_performance', 'amount': high_performance},
                ]
                when 'public_endpoint' then [
                    {'component': 'usage', 'amount': usage},
                ]
                when 'cluster' then [
                    {'component': 'gpu', 'amount': gpu},
                    {'component': 'disk', 'amount': disk},
                    {'component': 'networking', 'amount': networking},
                ]
            end,
            recursive := true
        ),
    from records
),

final as (
    select
        account,
        family,
        component,
        bucket_size,
        bucket_start,
        bucket_end,
        resource_id,
        amount,
    from components
    where amount <> 0
)

select * from final;
