-- One row per calendar month (UTC) and family of rpt_spend_monthly, all accounts together: the month's amount, the
-- previous month's and the change (the sum of the accounts' changes: the amount itself where the family is new).
create or replace view rpt_spend_monthly_by_family as
with monthly as (
    select * from rpt_spend_monthly
),

final as (
    select
        month,
        family,
        sum(amount) as amount,
        sum(previous_amount) as previous_amount,
        -- each row's change (a family new to an account changes by its whole amount): the change of the totals
        sum(change_amount) as change_amount,
    from monthly
    group by month, family
)

select * from final;
