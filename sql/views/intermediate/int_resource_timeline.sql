-- One row per billed resource (pod, Serverless endpoint, network volume, cluster) and stretch of time [valid_from,
-- valid_to) with the names and links valid then. The stretches of one resource never overlap and cover all time
-- (the first starts at -infinity, the last ends at infinity), so joining a bucket to its stretch can neither lose
-- nor duplicate a row.
create or replace view int_resource_timeline as
with unioned as (
    select * from int_pod_timeline
    union all by name
    select * from int_serverless_timeline
    union all by name
    select * from int_network_volume_timeline
    union all by name
    select * from int_cluster_timeline
),

-- valid_to is derived from the next stretch's start instead of trusted from storage: overlap is impossible
tiled as (
    select
        * exclude (valid_from),
        case
            when row_number() over by_start = 1 then '-infinity'::timestamptz
            else valid_from
        end as valid_from,
        coalesce(lead(valid_from) over by_start, 'infinity'::timestamptz) as valid_to,
    from unioned
    window by_start as (partition by account, family, resource_id order by valid_from, resource_name)
),

final as (
    -- the stretch first, then what the four timelines say of it, in int_pod_timeline's order
    select
        account, family, resource_id, valid_from, valid_to,
        * exclude (account, family, resource_id, valid_from, valid_to),
    from tiled
)

select * from final;
