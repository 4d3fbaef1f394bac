-- One row per account and UTC day, from its first billed day (its first observation when no top-ups are listed) to
-- report_clock's day: balance_end = the balance at the day's end, top_ups = credits completed that day (DEBIT and
-- PAYOUT count negative), spend = what was billed that day (cost_daily). balance_basis says where balance_end comes
-- from: reconstructed (when top-ups are listed, every day before the latest observation's day: that observation
-- plus the spend since the day's end, less the top-ups since – exact once that day's billing is), observed (an
-- observation on that day: the latest one) or carried_forward (the latest earlier observation).
create or replace view rpt_balance_daily as
with balance as (
    select * from balance_daily
),

final as (
    select * from balance
)

select * from final;
