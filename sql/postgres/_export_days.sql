-- One row per day table, account and UTC day the last export wrote: the fingerprint of that slice's rows as
-- computed in DuckDB (row count and hash sum). The next export rewrites only the slices whose fingerprint changed.
create table if not exists _export_days (
    table_name   text not null,
    account      text not null,
    day          date not null,
    fingerprint  text not null,
    row_count    bigint not null,
    export_id    bigint not null,  -- the export that last wrote the slice
    primary key (table_name, account, day)
);
