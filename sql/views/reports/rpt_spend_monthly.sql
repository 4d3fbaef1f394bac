-- One row per account, calendar month (UTC) and family, from the family's first billed month up to the month of
-- as_of_date (zero in months without cost), with the previous month's amount and the change; is_complete once the
-- month has ended by as_of and its billing is final on every route (rpt_complete_through).
create or replace view rpt_spend_monthly as
select * rename (period_start as month) from int_spend_periods_in('month');
