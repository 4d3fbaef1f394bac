-- One row: a fingerprint of what the resource timeline is computed from – every version in raw_inventory, without
-- the times it was last read (a sync moves those on every read; no timeline view reads them). Equal to the one kept
-- beside _meta_timeline_snapshot, the timeline's islands are the snapshot's, so a refresh need not compute them.
with versions as (
    select
        hash(account, kind, id, valid_from, valid_to, first_seen_at, deleted_at, content_hash, doc::varchar) as version_hash,
    from raw_inventory
),

final as (
    select count(*)::varchar || ':' || coalesce(sum(version_hash::hugeint), 0)::varchar as inputs_hash,
    from versions
)

select * from final
