-- One row per account: its latest prepaid-balance observation (at or before gpuledger_as_of when set) and how long
-- the money lasts. runway_hours = balance ÷ the platform's current spend per hour; runs_out_at = observed_at +
-- runway; storage_only_per_hour = what keeps billing once every pod is stopped (network volumes, stopped pods'
-- disks: int_storage_only_rate of the last complete day) and storage_runway_hours = balance ÷ that;
-- spend_limit_used_pct = current spend as % of the hourly spend limit. estimated = the balance source did not
-- answer lately (billing is known more than an hour past the observation): balance is then the last observed
-- balance less what was billed since (day amounts prorated by the hour), at the billing horizon. runway_hours is 0
-- when the balance is already out ($0 or less) and null when nothing is spent – it does not run out; runway_note
-- says which. After the required columns: billed_per_hour_24h (the last complete UTC day of billing ÷ 24: shows a
-- stale currentSpendPerHr), runway_hours_at_billed_rate and last_observed_at (the observation the row rests on);
-- then billing_model ('prepaid' or 'postpaid'), billing_basis and billing_evidence (int_runway_billing_model: which
-- observations decided) and month_to_date (the account's spend this month through report_clock's day). A post-paid
-- account has no runway – runway_hours, runs_out_at, storage_runway_hours and runway_hours_at_billed_rate are null,
-- and runway_note says "invoiced (post-paid)" and that the month-to-date spend is the figure to watch.
-- What rpt_runway shows.
create or replace view int_runway as
with clock as (
    select * from int_report_clock
),

variable as (
    select getvariable('gpuledger_as_of')::varchar::timestamptz as as_of
),

observations as (
    select * from stg_balance_observations
),

-- each read of cost_daily has its own import CTE: DuckDB copies a CTE read twice in full, before any filter applies
billed_costs as (
    select * from fct_cost_daily
),

last_day_costs as (
    select * from fct_cost_daily
),

month_costs as (
    select * from fct_cost_daily
),

billing_models as (
    select * from int_runway_billing_model
),

month_to_date as (
    select d.account, sum(d.amount)::decimal(18,6) as amount,
    from month_costs as d
    inner join int_report_clock as c on d.day >= c.month_start and d.day <= c.as_of_date
    group by all
),

-- only the day the runway reads (the last complete one), so the storage rate is not computed for all history
storage as (
    select s.*
    from int_storage_only_rate as s
    inner join int_report_clock as c on s.day = c.as_of_date - 1
),

latest as (
    select o.*
    from observations as o, variable
    where o.observed_at <= coalesce(variable.as_of, 'infinity'::timestamptz)
    qualify row_number() over (partition by o.account order by o.observed_at desc, o.load_id desc) = 1
),

-- billing known more than an hour past the observation means the balance source did not answer since
moment as (
    select
        l.*,
        clock.as_of > l.observed_at + interval 1 hour as estimated,
        greatest(clock.as_of, l.observed_at) as effective_at,
    from latest as l, clock
),

billed_since as (
    select
        m.account,
        sum(
            d.amount * (
                greatest(0, epoch(least(d.day::timestamptz + interval 1 day, m.effective_at))
                    - epoch(greatest(d.day::timestamptz, m.observed_at))) / 86400
            )::decimal(18,9)
        )::decimal(18,6) as amount,
    from moment as m
    inner join billed_costs as d
        on d.account = m.account
        and d.day >= (timezone('UTC', m.observed_at))::date
        and d.day <= (timezone('UTC', m.effective_at))::date
    where m.estimated
    group by all
),

last_day as (
    select
        m.account,
        sum(d.amount) as amount,
    from moment as m
    inner join last_day_costs as d
        on d.account = m.account
        and d.day = (timezone('UTC', m.effective_at))::date - 1
    group by all
),

balances as (
    select
        m.account,
        m.effective_at as observed_at,
        m.observed_at as last_observed_at,
        case when m.estimated then m.balance - coalesce(b.amount, 0) else m.balance end::decimal(18,6) as balance,
        m.spend_per_hour,
        m.spend_limit_per_hour,
        s.storage_only_per_hour,
        (ld.amount / 24)::decimal(18,6) as billed_per_hour_24h,
        m.estimated,
    from moment as m
    left join billed_since as b using (account)
    left join last_day as ld using (account)
    left join storage as s
        on s.account = m.account
        and s.day = (timezone('UTC', m.effective_at))::date - 1
),

runway as (
    select
        *,
        int_runway_hours(balance, storage_only_per_hour) as storage_runway_hours,
        int_runway_hours(balance, billed_per_hour_24h) as runway_hours_at_billed_rate,
        case
            when b.billing_model = 'postpaid' then 'invoiced (post-paid): no runway – the month-to-date spend is the figure to watch'
            when balance <= 0 then 'already out: the balance is not above $0'
            when not spend_per_hour > 0 then 'does not run out: the current spend is $0 per hour'
        end as runway_note,
        b.billing_model,
        b.billing_basis,
        b.billing_evidence,
        coalesce(mtd.amount, 0::decimal(18,6)) as month_to_date,
    from balances
    left join billing_models as b using (account)
    left join month_to_date as mtd using (account)
),

shaped as (
    select
        account,
        -- observed_at, balance, spend_per_hour, spend_limit_per_hour, runway_hours, runs_out_at
        unnest(int_observation_runway(observed_at, balance, spend_per_hour, spend_limit_per_hour)),
        coalesce(storage_only_per_hour, 0::decimal(18,6)) as storage_only_per_hour,
        storage_runway_hours,
        int_spend_limit_used_pct(spend_per_hour, spend_limit_per_hour) as spend_limit_used_pct,
        estimated,
        billed_per_hour_24h,
        runway_hours_at_billed_rate,
        last_observed_at,
        runway_note,
        billing_model,
        billing_basis,
        billing_evidence,
        month_to_date,
    from runway
),

-- an invoiced balance does not run out (a figure at or below $0 is usage not yet invoiced): no runway to show
final as (
    select * replace (
        case when billing_model = 'postpaid' then null else runway_hours end as runway_hours,
        case when billing_model = 'postpaid' then null else runs_out_at end as runs_out_at,
        case when billing_model = 'postpaid' then null else storage_runway_hours end as storage_runway_hours,
        case when billing_model = 'postpaid' then null else runway_hours_at_billed_rate end as runway_hours_at_billed_rate,
    )
    from shaped
)

select * from final;
