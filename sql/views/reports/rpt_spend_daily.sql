-- One row per account, UTC day and family, from the family's first billed day up to as_of_date of report_clock
-- (zero on days without cost), with the previous day's amount and the change; is_complete once the day has ended by
-- as_of and its billing is final on every route (rpt_complete_through).
create or replace view rpt_spend_daily as
select * rename (period_start as day) from int_spend_periods_in('day');
