-- One row: "now" for every report view. as_of is the variable gpuledger_as_of if set (SET VARIABLE
-- gpuledger_as_of = '2026-10-15T12:00:00Z'), else the data horizon (latest loaded_through of the billing
-- watermarks), else now(); with its UTC day, the first day not ended by it, and the calendar months around it.
-- Computed in int_report_clock, which the intermediate views read.
create or replace view report_clock as
with clock as (
    select * from int_report_clock
),

final as (
    select * from clock
)

select * from final;
