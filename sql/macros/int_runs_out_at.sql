-- A scalar macro: when a runway of runway_hours (int_runway_hours) observed at observed_at ends – null when it does
-- not run out. What runs_out_at is in int_runway and int_runway_history (int_observation_runway).
create or replace macro int_runs_out_at(observed_at, runway_hours) as
    observed_at + to_microseconds((runway_hours * 3600000000)::bigint);
