-- One row per account with a balance observation (rpt_runway): the runway figures the runway rule compares with its
-- thresholds.
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
from rpt_runway
order by account;
