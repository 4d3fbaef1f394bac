-- A table macro: one row per object of the relation named `versions` (an inventory staging view: account, the id
-- column named by `object_id`, valid_from, valid_to, deleted_at, …) – the version that held at report_clock's as_of,
-- if the object had not been deleted by then; one per object even if stored versions overlapped (the latest begun).
-- The inventory as it stood at as_of, said once for every kind int_waste_findings reads.
create or replace macro int_versions_at_in(versions, object_id) as table
with clock as (
    select * from int_report_clock
)

select v.*
from query_table(versions) as v, clock
where v.valid_from <= clock.as_of and clock.as_of < v.valid_to
    and (v.deleted_at is null or v.deleted_at > clock.as_of)
qualify row_number() over (partition by v.account, object_id order by v.valid_from desc) = 1;
