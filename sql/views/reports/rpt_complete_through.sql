-- One row per account with loaded billing: how far its billing is final (complete_through, cost_complete_through –
-- the same answer Daily spend's Complete column gives) and the last UTC day that is both final and ended by as_of
-- of report_clock (last_complete_day; open_date: a closed month's last day has ended at its last second).
create or replace view rpt_complete_through as
with final_through as (
    select * from cost_complete_through
),

clock as (
    select * from report_clock
),

final as (
    select
        f.account,
        f.complete_through,
        -- a day is complete when it ended by both: the day before the earlier of the two
        (least(f.complete_through_date, clock.open_date) - 1)::date as last_complete_day,
    from final_through as f, clock
)

select * from final;
