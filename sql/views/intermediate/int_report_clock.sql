-- One row: "now" for every view (report_clock publishes it). as_of is the variable gpuledger_as_of if set (SET VARIABLE
-- gpuledger_as_of = '2026-10-15T12:00:00Z'), else the data horizon (latest loaded_through of the billing
-- watermarks), else now(); with its UTC day, the first day not ended by it, and the calendar months around it.
create or replace view int_report_clock as
with variable as (
    select getvariable('gpuledger_as_of')::varchar::timestamptz as as_of
),

watermarks as (
    select max(loaded_through) as horizon
    from stg_watermarks
    where source <> 'inventory'
),

clock as (
    select coalesce(variable.as_of, watermarks.horizon, now()) as as_of
    from variable, watermarks
),

dated as (
    select
        as_of,
        -- the UTC day, whatever the session's TimeZone
        (timezone('UTC', as_of))::date as as_of_date,
        -- the first UTC day that has not ended by as_of. A closed period is evaluated as of its last second
        -- (src/report/period/report-clock.ts), and at that second its last day is over: the clock resolves seconds,
        -- so a day has ended once as_of is within its last second
        (timezone('UTC', as_of + interval 1 second))::date as open_date,
    from clock
),

final as (
    select
        as_of,
        as_of_date,
        open_date,
        date_trunc('month', as_of_date)::date as month_start,
        (date_trunc('month', as_of_date) + interval 1 month)::date as next_month_start,
        (date_trunc('month', as_of_date) - interval 1 month)::date as prev_month_start,
        day(as_of_date)::integer as day_of_month,
        datediff('day', date_trunc('month', as_of_date), date_trunc('month', as_of_date) + interval 1 month)::integer
            as days_in_month,
    from dated
)

select * from final;
