-- A scalar macro: a balance observation and the runway it gives, as one struct whose fields are the leading columns
-- of rpt_runway and rpt_runway_history in their order – observed_at, balance, spend_per_hour, spend_limit_per_hour,
-- runway_hours (int_runway_hours of the balance at that spend) and runs_out_at (int_runs_out_at) – for the view to
-- unnest where its columns go. What int_runway and int_runway_history share, said once.
create or replace macro int_observation_runway(observed_at, balance, spend_per_hour, spend_limit_per_hour) as {
    'observed_at': observed_at,
    'balance': balance,
    'spend_per_hour': spend_per_hour,
    'spend_limit_per_hour': spend_limit_per_hour,
    'runway_hours': int_runway_hours(balance, spend_per_hour),
    'runs_out_at': int_runs_out_at(observed_at, int_runway_hours(balance, spend_per_hour)),
};
