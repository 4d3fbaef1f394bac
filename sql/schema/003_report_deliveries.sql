-- 003_report_deliveries: one row per attempt to email a workbook (a report for a period): who it went to, how it
-- was attached, how many sends it took and how it ended. A failed delivery stays here with its last error
-- (redacted, never the SMTP password), and the workbook stays on disk at `path`, so nothing is dropped silently.
create table _meta_report_deliveries (
    delivery_id   varchar primary key,
    report        varchar not null,
    period        varchar not null,        -- the period label: 2026-10, 2026-11-21 (month to date), 2026-10-01_2026-10-15
    path          varchar not null,        -- the workbook on disk
    bytes         bigint not null,         -- workbook size
    recipients    varchar[] not null,
    attachment    varchar not null,        -- xlsx | zip | none (too large: the body states the path)
    attempts      integer not null,        -- sends tried so far
    status        varchar not null,        -- sending | sent | partial (some recipients refused) | failed
    last_error    varchar,
    message_id    varchar,
    created_at    timestamptz not null,
    updated_at    timestamptz not null
);
