-- One row per account and UTC day, from its first billed day (its first observation when no top-ups are listed) to report_clock's day: balance_end = the balance at the day's end, top_ups = credits completed that day (DEBIT and PAYOUT count negative), spend = what was billed that day (cost_daily). balance_basis says where balance_end comes from: observed (an observation on that day), carried_forward (the latest earlier observation) or reconstructed (days before the first observation: that observation plus the spend since the day's end, less the top-ups since).
create or replace view rpt_balance_daily as
with balance as (
    select * from int_balance_daily
),

final as (
    select * from balance
)

select * from final;
