-- One row per account with a balance observation (at or before gpuledger_as_of when set): how it pays, and why.
-- billing_model is 'prepaid' (a credit balance that runs out: the runway applies) or 'postpaid' (invoiced: the
-- balance reads $0 or below and nothing is suspended – there is no runway). billing_basis says who decided:
-- 'config' (accounts[].billing said prepaid or postpaid), 'detected' (billing auto, and the observations show a
-- post-paid account) or 'assumed' (billing auto without that evidence: prepaid, so the runway is still watched).
-- The evidence is the account's latest run of observations at or below $0 – every observation after its last one
-- above $0 and after its last top-up: zero_since (the run's first observation), zero_observations, zero_syncs (the
-- distinct loads that read them) and compute_billed_after (pod GPU and CPU and Instant Clusters billed on the UTC
-- days after zero_since's day, through the latest observation's day). Detected = zero_syncs >= 2 and
-- compute_billed_after > 0: at $0 a prepaid account's running pods all stop and a new pod needs an hour of credit
-- (balance-and-queue.md §2), so compute billed on a later day with the balance still at or below $0 means the
-- balance stops nothing. Storage and Serverless do not count: storage keeps billing after pods stop, and the
-- contract does not say Serverless stops. A first sync can show it too: the latest balance at or below $0, the
-- top-up history answered (stripeReloadHistory not among the observation's missing_fields) and listing no credit
-- ever, while pods billed (compute_billed, all synced days through the latest observation's day) – pods ran on
-- money that was never paid in, which a prepaid account cannot do. billing_evidence says the deciding observations
-- in words.
create or replace view int_runway_billing_model as
with variable as (
    select getvariable('gpuledger_as_of')::varchar::timestamptz as as_of
),

observations as (
    select * from stg_balance_observations
),

top_ups as (
    select * from stg_balance_top_ups
),

accounts as (
    select * from stg_accounts
),

-- each read of cost_daily has its own import CTE: DuckDB copies a CTE read twice in full, before any filter applies
compute_costs_after as (
    select * from fct_cost_daily
    where (family = 'pod' and component <> 'disk') or family = 'cluster'
),

compute_costs_ever as (
    select * from fct_cost_daily
    where (family = 'pod' and component <> 'disk') or family = 'cluster'
),

seen as (
    select o.*
    from observations as o, variable
    where o.observed_at <= coalesce(variable.as_of, 'infinity'::timestamptz)
),

latest as (
    select
        account,
        observed_at as latest_at,
        balance as latest_balance,
        not list_contains(missing_fields, 'stripeReloadHistory') as top_ups_answered,
    from seen
    qualify row_number() over (partition by account order by observed_at desc, load_id desc) = 1
),

last_positive as (
    select account, max(observed_at) as at,
    from seen
    where balance > 0
    group by all
),

last_top_up as (
    select t.account, max(t.completed_at) as at,
    from top_ups as t
    inner join latest as l using (account)
    where t.completed_at <= l.latest_at and t.credits_amount > 0
    group by all
),

-- the run of observations at or below $0 starts after the last one above $0 and after the last top-up before the
-- latest observation (a top-up may have been spent down again unseen: it breaks the run)
run_start as (
    select l.account, greatest(p.at, u.at) as after,
    from latest as l
    left join last_positive as p using (account)
    left join last_top_up as u using (account)
),

zero_run as (
    select
        s.account,
        min(s.observed_at) as zero_since,
        count(*) as zero_observations,
        count(distinct s.load_id) as zero_syncs,
    from seen as s
    inner join run_start as r using (account)
    where s.balance <= 0
        and s.observed_at > coalesce(r.after, '-infinity'::timestamptz)
    group by all
),

credits_listed as (
    select t.account, count(*) as credits,
    from top_ups as t
    inner join latest as l using (account)
    where t.completed_at <= l.latest_at and t.credits_amount > 0
    group by all
),

-- only where it can decide: an account whose latest balance is above $0 is not looked up
compute_ever as (
    select l.account, sum(c.amount) as amount,
    from latest as l
    inner join compute_costs_ever as c
        on c.account = l.account
        and c.day <= (timezone('UTC', l.latest_at))::date
    where c.amount > 0 and l.latest_balance <= 0
    group by all
),

compute_after as (
    select
        z.account,
        sum(c.amount) as amount,
        min(c.day) as first_day,
    from zero_run as z
    inner join latest as l using (account)
    inner join compute_costs_after as c
        on c.account = z.account
        and c.day > (timezone('UTC', z.zero_since))::date
        and c.day <= (timezone('UTC', l.latest_at))::date
    where c.amount > 0
    group by all
),

evidence as (
    select
        l.account,
        coalesce(a.billing, 'auto') as billing_setting,
        l.latest_balance <= 0 as at_or_below_zero,
        case
            when l.latest_balance < 0 then '-$' || (-l.latest_balance)::decimal(18,2)::varchar
            else '$' || l.latest_balance::decimal(18,2)::varchar
        end as latest_balance_text,
        z.zero_since,
        coalesce(z.zero_observations, 0) as zero_observations,
        coalesce(z.zero_syncs, 0) as zero_syncs,
        coalesce(c.amount, 0)::decimal(18,6) as compute_billed_after,
        c.first_day as compute_first_day,
        coalesce(e.amount, 0)::decimal(18,6) as compute_billed,
        l.top_ups_answered and coalesce(k.credits, 0) = 0 as no_credit_listed,
    from latest as l
    left join accounts as a using (account)
    left join zero_run as z using (account)
    left join compute_after as c using (account)
    left join compute_ever as e using (account)
    left join credits_listed as k using (account)
),

decided as (
    select
        *,
        zero_syncs >= 2 and compute_billed_after > 0 as spent_at_zero,
        at_or_below_zero and no_credit_listed and compute_billed > 0 as spent_unpaid,
    from evidence
),

detected as (
    select
        *,
        spent_at_zero or spent_unpaid as postpaid_detected,
    from decided
),

final as (
    select
        account,
        case
            when billing_setting in ('prepaid', 'postpaid') then billing_setting
            when postpaid_detected then 'postpaid'
            else 'prepaid'
        end as billing_model,
        case
            when billing_setting in ('prepaid', 'postpaid') then 'config'
            when postpaid_detected then 'detected'
            else 'assumed'
        end as billing_basis,
        billing_setting,
        zero_since,
        zero_observations,
        zero_syncs,
        compute_billed_after,
        compute_billed,
        case
            when billing_setting = 'postpaid' then 'the config says billing: postpaid'
            when billing_setting = 'prepaid' then 'the config says billing: prepaid'
            when spent_at_zero then
                'post-paid: the balance read $0 or below at ' || zero_syncs || ' syncs since '
                || strftime(zero_since, '%Y-%m-%dT%H:%M:%SZ') || ' while pods billed $'
                || compute_billed_after::decimal(18,2)::varchar || ' from ' || strftime(compute_first_day, '%Y-%m-%d')
                || ' (a prepaid account stops at $0)'
            when spent_unpaid then
                'post-paid: the balance reads ' || latest_balance_text || ' and no top-up was ever listed, while pods billed $'
                || compute_billed::decimal(18,2)::varchar || ' (a prepaid account spends only credit paid in)'
            when at_or_below_zero then
                'prepaid unless shown otherwise: the balance read $0 or below at ' || zero_syncs || ' sync(s) since '
                || strftime(zero_since, '%Y-%m-%dT%H:%M:%SZ') || case
                    when zero_syncs < 2 then '; a second sync with pods billed on a later day would show a post-paid account'
                        || case when no_credit_listed then '' else ' (top-ups are listed, so it has paid in)' end
                    else '; no pod billed on a later day'
                end
            else 'prepaid: the balance is above $0'
        end as billing_evidence,
    from detected
)

select * from final;
