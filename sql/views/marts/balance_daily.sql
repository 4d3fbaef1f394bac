-- One row per account and UTC day, from its first billed day (its first observation when no top-ups are listed) to
-- report_clock's day: balance_end = the balance at the day's end, top_ups = credits completed that day (DEBIT and
-- PAYOUT count negative), spend = what was billed that day (cost_daily). balance_basis says where balance_end comes
-- from: reconstructed (when top-ups are listed, every day before the latest observation's day: that observation
-- plus the spend since the day's end, less the top-ups since – exact once that day's billing is), observed (an
-- observation on that day: the latest one) or carried_forward (the latest earlier observation). What
-- rpt_balance_daily shows.
-- the latest observation: the balance the past is walked back from. It was read in the same sync as the latest
-- billing, so the billing since any earlier day's end is known up to it – exact where an earlier observation, read
-- while its day was still billing, is not (issue 25: a day's end is not the moment of its last observation)
-- the latest observation's day up to the observation: its billing so far, prorated when the day goes on past it
-- days before the latest observation's day: walk back from it, adding back the spend and taking out the top-ups
-- since
-- without a top-up history nothing is walked back: each day shows its own latest observation, or the one before
-- The mart the report views read; computed in int_balance_daily, which reads staging.
create or replace view balance_daily as
with balances as (
    select * from int_balance_daily
),

final as (
    select * from balances
)

select * from final;
