-- One row per export that committed (an export that failed or was killed leaves no row, and no other trace): when
-- it ran, which published DuckDB file it read, and what it rewrote. The latest row is the export a reader sees.
create table if not exists _export_runs (
    export_id             bigint generated always as identity primary key,
    started_at            timestamptz not null,  -- the transaction's start; freshness.exported_at
    finished_at           timestamptz,           -- just before the commit
    gpuledger_version     text not null,
    source_modified_at    timestamptz,           -- modification time of the DuckDB file read (its last publish)
    tables_created        integer not null default 0,
    slices_rewritten      integer not null default 0,
    slices_removed        integer not null default 0,
    rows_deleted          bigint not null default 0,
    rows_written          bigint not null default 0,
    changes               jsonb not null default '{}'  -- {table: {"days": ["account/YYYY-MM-DD", …] | "whole", "rows": n}}
);
