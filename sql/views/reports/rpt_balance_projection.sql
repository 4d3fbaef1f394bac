-- One row per UTC day: the prepaid balance of all accounts at the day's end (actual, from rpt_balance_daily) and,
-- from the last day with a balance for up to 30 days on, a straight-line projection to $0 at the current spend per
-- hour (forecast, from rpt_runway) – null when nothing is spent. The balance chart of the nightly Summary. Prepaid
-- accounts only: a post-paid (invoiced) account's balance is usage not yet invoiced, not credit that runs out
-- (rpt_runway.billing_model), so it is neither added to the credit nor projected to $0.
create or replace view rpt_balance_projection as
with balances as (
    select * from rpt_balance_daily
),

runway as (
    select * from rpt_runway
),

postpaid as (
    select account from runway where billing_model = 'postpaid'
),

history as (
    select day, sum(balance_end) as balance,
    from balances
    where account not in (select account from postpaid)
    group by day
),

-- one straight line from the latest balance at the current spend per hour, until it reaches zero
burn as (
    select sum(balance) as balance, sum(spend_per_hour) * 24 as per_day,
    from runway
    where billing_model = 'prepaid'
),

projection as (
    select (h.last_day + d::integer)::date as day, greatest(b.balance - b.per_day * d, 0) as projected,
    from (select max(day) as last_day from history) as h, burn as b, range(0, 31) as r(d)
    where b.per_day > 0 and b.balance - b.per_day * (d - 1) > 0
),

final as (
    select
        coalesce(h.day, p.day) as day,
        h.balance as actual,
        p.projected as forecast,
    from history as h
    full outer join projection as p on p.day = h.day
)

select * from final;
