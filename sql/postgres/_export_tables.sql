-- One row per mirrored table: the definition it was created with (a hash of its columns, types, indexes and the
-- fingerprint method – a new one drops and rebuilds the table) and, for whole tables, the fingerprint of the rows
-- the last export wrote.
create table if not exists _export_tables (
    table_name   text primary key,
    definition   text not null,
    fingerprint  text,            -- whole tables: row count and hash sum; null for day tables (see _export_days)
    row_count    bigint not null,
    export_id    bigint not null  -- the export that last wrote the table
);
