-- A table macro: one row per version of an inventory object of kind `kind_of` (raw_inventory): its account, id and
-- document, and when the version held – valid_from and valid_to tile time from -infinity to infinity, is_current for
-- the open one – with when it was first and last read and when the object left its list (deleted_at). What every
-- inventory staging view reads, so the version columns are said once.
create or replace macro stg_inventory_versions_in(kind_of) as table
select
    account,
    id,
    doc,
    valid_from,
    valid_to,
    valid_to = 'infinity'::timestamptz as is_current,
    first_seen_at,
    last_seen_at,
    deleted_at,
from raw_inventory
where kind = kind_of;
