-- One row per account with a balance observation (rpt_runway): the runway figures the runway rule compares with its
-- thresholds, and how the account pays (a post-paid one has no runway and gets no runway alert).
select
    account,
    strftime(observed_at, '%Y-%m-%dT%H:%M:%SZ') as observed_at,
    balance,
    spend_per_hour,
    spend_limit_per_hour,
    runway_hours,
    strftime(runs_out_at, '%Y-%m-%dT%H:%M:%SZ') as runs_out_at,
    storage_only_per_hour,
    storage_runway_hours,
    spend_limit_used_pct,
    estimated,
    billed_per_hour_24h,
    runway_hours_at_billed_rate,
    billing_model,
    billing_basis,
    billing_evidence,
    month_to_date,
from rpt_runway
order by account;
