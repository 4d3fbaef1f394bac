-- One row per resource whose attribution changed since fct_cost_daily was computed: the first UTC day whose start
-- lies at or after the earliest moment at which the stored islands (_meta_timeline_snapshot) and the current ones
-- (temp table timeline_islands) say different things – null when that is the beginning of time. Cost is named as of
-- a day's start, so days before it keep their names.
with stored as (
    select * from _meta_timeline_snapshot
),

current_islands as (
    select * from timeline_islands
),

compared as (
    select
        -- the key of either side (a full join's using columns)
        account,
        family,
        resource_id,
        case
            -- an island only one side has, or the same start with other names: different from its start
            when c.fingerprint is distinct from s.fingerprint then coalesce(c.valid_from, s.valid_from)
            -- the same names from the same start, but it ends elsewhere: different from the earlier end
            when c.valid_to <> s.valid_to then least(c.valid_to, s.valid_to)
        end as changed_at,
    from current_islands as c
    full outer join stored as s using (account, family, resource_id, valid_from)
),

final as (
    select
        account,
        family,
        resource_id,
        -- the first day starting at or after the change (a day that starts before it keeps the old names)
        case when min(changed_at) = '-infinity'::timestamptz then null
            else date '1970-01-01' + ((epoch_us(min(changed_at)) + 86399999999) // 86400000000)::integer
        end as from_day,
    from compared
    where changed_at is not null
    group by all
)

select * from final
