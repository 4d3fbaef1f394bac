-- 009_applied_views: which set of sql/views files the database's views were last created from (a hash over every
-- file's name and text), so a writing open re-creates them only when a file changed – applying ~70 views costs
-- seconds, and writers now open the database in many short sessions.
create table _meta_applied_views (
    views_hash    varchar not null,
    view_count    integer not null,
    applied_at    timestamptz not null
);
