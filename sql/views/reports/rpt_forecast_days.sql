-- One row per UTC day around report_clock that a forecast reads (int_forecast_days): its weekday, whether it is one
-- of the 28 complete days before as_of_date a weekday forecast averages over (is_history), and the share of the day
-- still to come.
create or replace view rpt_forecast_days as
with days as (
    select * from int_forecast_days
),

final as (
    select * from days
)

select * from final;
