-- One row per account, ISO week (Monday start, UTC) and family, from the family's first billed week up to the week
-- of as_of_date (zero in weeks without cost), with the previous week's amount and the change; is_complete once the
-- week has ended by as_of and its billing is final on every route (rpt_complete_through).
create or replace view rpt_spend_weekly as
select * rename (period_start as week_start) from int_spend_periods_in('week');
