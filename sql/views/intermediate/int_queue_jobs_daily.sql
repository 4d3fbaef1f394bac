-- One row per account, Serverless endpoint, UTC day and job counter (jobs_completed, jobs_failed): jobs derived
-- from stg_queue_health samples. Each interval between consecutive samples of an endpoint contributes the counter's
-- increase (a decrease is a reset: the new value is counted from 0), split over the UTC days it spans in proportion
-- to time, in whole jobs whose day shares add up to the interval's count exactly (balance-and-queue.md §3: whether
-- the counters are lifetime is [open], so these are estimates).
create or replace view int_queue_jobs_daily as
with samples as (
    select * from stg_queue_health
),

counters as (
    unpivot (select account, endpoint_id, endpoint_name, sampled_at, completed, failed, from samples)
    on completed, failed
    into name counter value reading
),

intervals as (
    select
        account,
        endpoint_id,
        endpoint_name,
        counter,
        lag(sampled_at) over by_time as started_at,
        sampled_at as ended_at,
        lag(reading) over by_time as previous,
        reading,
    from counters
    window by_time as (partition by account, endpoint_id, counter order by sampled_at)
),

deltas as (
    select
        *,
        -- a counter that went down was reset: everything it shows now happened since
        (case when reading >= previous then reading - previous else reading end)::hugeint as jobs,
        epoch_us(started_at) as t0,
        epoch_us(ended_at) as t1,
    from intervals
    where previous is not null and ended_at > started_at
),

-- the UTC days each interval touches (day numbers since 1970-01-01)
spans as (
    select
        *,
        unnest(range(t0 // 86400000000, (t1 - 1) // 86400000000 + 1)) as day_number,
    from deltas
),

-- cumulative floors: day d gets floor(jobs·end_d/len) − floor(jobs·start_d/len), so the days add up to jobs
shares as (
    select
        account,
        endpoint_id,
        endpoint_name,
        counter,
        day_number,
        (jobs * (least(t1, (day_number + 1) * 86400000000) - t0)) // (t1 - t0)
            - (jobs * (greatest(t0, day_number * 86400000000) - t0)) // (t1 - t0) as jobs,
        ended_at,
    from spans
),

final as (
    select
        account,
        date '1970-01-01' + day_number::integer as day,
        'jobs_' || counter as metric,
        -- named as in the latest sample of the day, so the scope matches cost_daily's endpoint_name
        'endpoint:' || coalesce(arg_max(endpoint_name, ended_at), endpoint_id) as scope,
        endpoint_id,
        sum(jobs)::decimal(38,6) as value,
    from shares
    group by account, day_number, counter, endpoint_id
)

select * from final;
