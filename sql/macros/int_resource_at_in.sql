-- A table macro: one row per row of the relation named `rows` (with account, family, resource_id and as_of – a
-- moment – among its columns): its columns but as_of, then the stretch of int_resource_timeline its resource was in
-- at that moment – valid_from, valid_to and what the timeline says of it (names, links, GPU count, cloud) –, all
-- null without inventory. The stretches of one resource tile all time without overlap: one match per row, or none.
-- The as-of join of the cost (int_cost_attributed_in) and of its GPU-hours (int_gpu_hours_daily), said once.
create or replace macro int_resource_at_in(rows) as table
with timeline as (
    select * from int_resource_timeline
)

select
    r.* exclude (as_of),
    t.* exclude (account, family, resource_id),
from query_table(rows) as r
left join timeline as t
    on t.account = r.account
    and t.family = r.family
    and t.resource_id = r.resource_id
    and r.as_of >= t.valid_from
    and r.as_of < t.valid_to;
