-- A table macro: one row per row of the relation named `totals`, whose last columns are a subject's month-window sums
-- (cost_month_windows: month_to_date, previous_month_to_date, previous_month, month_to_last_day,
-- previous_month_to_last_day) – its other columns first, the windows, and between them change_amount and change_pct
-- (int_change_pct) of month to date against the previous month to the same day. The month-change columns of
-- rpt_by_endpoint, rpt_by_gpu_type and rpt_by_template (int_subject_months_in), said once.
create or replace macro int_month_change_in(totals) as table
select
    * exclude (month_to_last_day, previous_month_to_last_day),
    month_to_date - previous_month_to_date as change_amount,
    int_change_pct(month_to_date, previous_month_to_date) as change_pct,
    month_to_last_day,
    previous_month_to_last_day,
from query_table(totals);
