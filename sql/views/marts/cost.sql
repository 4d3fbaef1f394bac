-- One row per billing record and non-zero amount component, at every extracted bucket size (filter on
-- bucket_size!), attributed and named as of the bucket's start from inventory history. Public interface
-- (DESIGN.md): columns and names are stable.
create or replace view cost as
with attributed as (
    select * from int_cost_attributed_in('bucket', '-infinity'::timestamptz, 'infinity'::timestamptz)
),

final as (
    -- DECIMAL(18,6) as the API's amounts (the day grain's sums, unioned in int_cost_attributed_in, are wider)
    select * exclude (grain, valid_from, valid_to, subject_id) replace (amount::decimal(18,6) as amount) from attributed
)

select * from final;
