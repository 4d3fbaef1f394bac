-- 008_metrics: the denominators of unit costs (issue 14). Business metrics users import, and the samples of the
-- Serverless queue API's /health counters from which the views derive jobs per day.

-- raw_metrics: one row per account, UTC day, metric and scope, as last imported (`gpuledger metrics import`).
-- Re-importing a (day, metric, scope) replaces its row; scope is '' (the whole account) or `kind:value`.
create table raw_metrics (
    account      varchar not null,
    day          date not null,
    metric       varchar not null,
    scope        varchar not null,
    value        decimal(38,6) not null,       -- exact, non-negative
    source_file  varchar not null,             -- the file (or '-') it came from, and its line
    source_line  integer not null,
    _load_id     varchar not null,
    _loaded_at   timestamptz not null,
    primary key (account, day, metric, scope)
);

-- raw_queue_health: one row per sample of GET /v2/{endpoint_id}/health (balance-and-queue.md §3), in the API's
-- shape. completed/failed/retried may be lifetime counters or a rolling window [open]: views use positive deltas
-- only.
create table raw_queue_health (
    account        varchar not null,
    endpoint_id    varchar not null,
    endpoint_name  varchar,
    sampled_at     timestamptz not null,       -- the queue API's clock (its Date header), else ours
    completed      bigint,
    failed         bigint,
    in_progress    bigint,
    in_queue       bigint,
    retried        bigint,
    workers        json,                       -- an open map of integers (idle, running, throttled, …)
    _load_id       varchar not null,
    _extracted_at  timestamptz not null,
    primary key (account, endpoint_id, sampled_at)
);
