-- A table macro: one row per row of the relation named `stretches` – a resource timeline's columns up to endpoint_name,
-- then created_at and deleted_at – with attribution and status before those two: attribution says how the stretch's
-- template was linked (`linked_by` when it has a template_id, else 'unknown') and status is 'DELETED' once deleted_at
-- is set, else 'ACTIVE' (the inventory keeps no other state for these resources). The closing columns of
-- int_cluster_timeline, int_serverless_timeline and int_network_volume_timeline, said once; int_pod_timeline has the
-- pod's own status and its own linking rule.
create or replace macro int_timeline_status_in(stretches, linked_by) as table
select
    * exclude (created_at, deleted_at),
    case when template_id is not null then linked_by else 'unknown' end as attribution,
    case when deleted_at is not null then 'DELETED' else 'ACTIVE' end as status,
    created_at,
    deleted_at,
from query_table(stretches);
