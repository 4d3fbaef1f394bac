-- A table macro: one row per account, period of the grain `grain_of` ('day', 'week', 'month') and family of
-- spend_periods – account, period_start, then the period's family, amounts, change and is_complete. The columns
-- rpt_spend_daily, rpt_spend_weekly and rpt_spend_monthly show, said once: each names period_start for its grain.
create or replace macro int_spend_periods_in(grain_of) as table
select account, period_start, * exclude (grain, account, period_start, period_end),
from spend_periods
where grain = grain_of;
