-- One row per account, family (pod, cluster, serverless), UTC day and resource with a GPU amount: estimated
-- GPU-hours = GPU amount ÷ the list price per GPU-hour (int_gpu_list_prices), running_hours = GPU-hours ÷ GPU count
-- (pod or cluster hours; Serverless worker-hours), both DECIMAL(38,6) rounded half up from exact integer division.
-- Estimates, always: v2 billing has no quantities. list_cost is GPU-hours × list price and effective_discount =
-- list_cost − billed_cost (0 up to rounding while the hours are derived from the list price itself). It reads the
-- table fct_gpu_hours_daily, which every writing session keeps equal to int_gpu_hours_daily for the days whose cost
-- changed and, when the catalog's list prices change, for all days.
create or replace view gpu_hours_daily as
with facts as (
    select * from fct_gpu_hours_daily
),

final as (
    select * from facts
)

select * from final;
