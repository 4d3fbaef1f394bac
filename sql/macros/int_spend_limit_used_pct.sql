-- A scalar macro: the spend per hour as a percentage of the account's hourly spend limit, DECIMAL(9,1) – null when
-- there is no limit (0 or unknown). What spend_limit_used_pct is in int_runway and int_runway_history.
create or replace macro int_spend_limit_used_pct(spend_per_hour, spend_limit_per_hour) as
    (100 * spend_per_hour / nullif(spend_limit_per_hour, 0))::decimal(9,1);
