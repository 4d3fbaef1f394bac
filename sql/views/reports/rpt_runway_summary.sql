-- One row per account with a balance observation, as the nightly report's "Prepaid balance and runway" table shows
-- it: rpt_runway's balance, spend per hour, runway and month to date, with billing in words (prepaid, or invoiced
-- (post-paid): no runway – the month to date is the figure to watch) and basis, what the balance rests on
-- (observed, estimated from billing since the last observation, or the evidence that the account is post-paid).
-- billing_model is kept for the order the report lists accounts in: prepaid first, the shortest runway first.
create or replace view rpt_runway_summary as
with runway as (
    select * from rpt_runway
),

final as (
    select
        account,
        case when billing_model = 'postpaid' then 'invoiced (post-paid)' else 'prepaid' end as billing,
        balance,
        spend_per_hour,
        runway_hours,
        runs_out_at,
        month_to_date,
        spend_limit_used_pct,
        storage_runway_hours,
        case
            when billing_model = 'postpaid'
                then 'invoiced (post-paid): no runway, the month to date is the figure to watch – ' || billing_evidence
            when estimated then 'estimated from billing since ' || strftime(observed_at, '%Y-%m-%d %H:%M UTC')
            else 'observed'
        end as basis,
        billing_model,
    from runway
)

select * from final;
