-- 001_init: raw billing tables in the API's shape (one row per API record, the latest version of it), inventory
-- history, and the run/load/watermark metadata. Amounts are DECIMAL(18,6) (micro-dollars), times TIMESTAMPTZ UTC,
-- buckets half-open [start_time, end_time). Every raw row carries the load that brought it (_load_id).
-- No primary keys on raw tables: a load deletes the window it re-read and inserts the new records in one
-- transaction, and DuckDB's index checks on delete-then-reinsert of one key are best avoided.

create table _meta_runs (
    run_id        varchar primary key,
    command       varchar not null,
    args          varchar,                 -- the command line, secrets never included
    started_at    timestamptz not null,
    finished_at   timestamptz,
    status        varchar not null,        -- running | success | partial | failed
    requests      integer not null default 0,
    retries       integer not null default 0,
    rate_limited  integer not null default 0,  -- 429 answers received
    records       bigint not null default 0,
    bytes         bigint not null default 0,
    errors        json,                    -- [{source, message}]
    summary       json
);

create table _meta_loads (
    load_id       varchar primary key,
    run_id        varchar not null,
    account       varchar not null,
    source        varchar not null,        -- aggregate | pods | serverless | network-volumes | endpoints | clusters | inventory
    bucket_size   varchar,                 -- null for inventory
    window_start  timestamptz,
    window_end    timestamptz,
    records       bigint not null,
    bytes         bigint,
    total_amount  decimal(38,6),           -- sum of total_amount over the loaded records
    extracted_at  timestamptz not null
);

-- Per (account, source, bucket size): how far the history reaches and which buckets are final.
create table _meta_watermarks (
    account           varchar not null,
    source            varchar not null,
    bucket_size       varchar not null,    -- '' for inventory
    loaded_from       timestamptz,         -- earliest bucket start loaded
    loaded_through    timestamptz,         -- end of the latest loaded window
    complete_through  timestamptz,         -- buckets ending at or before this are final (older than the lookback)
    last_success_at   timestamptz,
    last_run_id       varchar,
    primary key (account, source, bucket_size)
);

-- Amounts that moved between two reads of the same bucket: the open bucket growing, or a closed one restated.
create table _meta_restatements (
    detected_at   timestamptz not null,
    load_id       varchar not null,
    account       varchar not null,
    source        varchar not null,
    bucket_size   varchar not null,
    bucket_start  timestamptz not null,
    resource_id   varchar not null,        -- '' for routes without an id (aggregate, endpoints)
    kind          varchar not null,        -- growth (the bucket was open at the previous read) | restatement | removed
    old_amount    decimal(18,6),           -- total_amount before (null: the record is new)
    new_amount    decimal(18,6)            -- total_amount after (null: the record disappeared)
);

create table raw_billing_aggregate (
    account                         varchar not null,
    bucket_size                     varchar not null,
    start_time                      timestamptz not null,
    end_time                        timestamptz not null,
    total_amount                    decimal(18,6) not null,
    pod_gpu_amount                  decimal(18,6) not null,
    pod_cpu_amount                  decimal(18,6) not null,
    pod_disk_amount                 decimal(18,6) not null,
    serverless_gpu_amount           decimal(18,6) not null,
    serverless_cpu_amount           decimal(18,6) not null,
    serverless_disk_amount          decimal(18,6) not null,
    serverless_fee_amount           decimal(18,6) not null,
    storage_standard_amount         decimal(18,6) not null,
    storage_high_performance_amount decimal(18,6) not null,
    endpoint_amount                 decimal(18,6) not null,
    cluster_gpu_amount              decimal(18,6) not null,
    cluster_disk_amount             decimal(18,6) not null,
    cluster_networking_amount       decimal(18,6) not null,
    _load_id                        varchar not null,
    _extracted_at                   timestamptz not null
);

create table raw_billing_pods (
    account        varchar not null,
    bucket_size    varchar not null,
    start_time     timestamptz not null,
    end_time       timestamptz not null,
    pod_id         varchar not null,
    total_amount   decimal(18,6) not null,
    gpu_amount     decimal(18,6) not null,
    cpu_amount     decimal(18,6) not null,
    disk_amount    decimal(18,6) not null,
    _load_id       varchar not null,
    _extracted_at  timestamptz not null
);

create table raw_billing_serverless (
    account        varchar not null,
    bucket_size    varchar not null,
    start_time     timestamptz not null,
    end_time       timestamptz not null,
    serverless_id  varchar not null,
    total_amount   decimal(18,6) not null,
    gpu_amount     decimal(18,6) not null,
    cpu_amount     decimal(18,6) not null,
    disk_amount    decimal(18,6) not null,
    fee_amount     decimal(18,6) not null,
    _load_id       varchar not null,
    _extracted_at  timestamptz not null
);

create table raw_billing_network_volumes (
    account                   varchar not null,
    bucket_size               varchar not null,
    start_time                timestamptz not null,
    end_time                  timestamptz not null,
    network_volume_id         varchar not null,
    total_amount              decimal(18,6) not null,
    standard_amount           decimal(18,6) not null,
    high_performance_amount   decimal(18,6) not null,
    _load_id                  varchar not null,
    _extracted_at             timestamptz not null
);

-- public model endpoints (not Serverless): one record per bucket, no id
create table raw_billing_endpoints (
    account        varchar not null,
    bucket_size    varchar not null,
    start_time     timestamptz not null,
    end_time       timestamptz not null,
    total_amount   decimal(18,6) not null,
    _load_id       varchar not null,
    _extracted_at  timestamptz not null
);

create table raw_billing_clusters (
    account             varchar not null,
    bucket_size         varchar not null,
    start_time          timestamptz not null,
    end_time            timestamptz not null,
    cluster_id          varchar not null,
    total_amount        decimal(18,6) not null,
    gpu_amount          decimal(18,6) not null,
    disk_amount         decimal(18,6) not null,
    networking_amount   decimal(18,6) not null,
    _load_id            varchar not null,
    _extracted_at       timestamptz not null
);

-- Inventory as history: one row per version of an object as the API returned it (doc, minus `env`, which can hold
-- users' secrets). Versions of one object tile all time: the first seen starts at -infinity (the best guess for
-- bills older than the first sync), the current one ends at infinity – also after the object vanished from its list
-- (deleted_at), so a pod terminated months ago keeps its name, GPU type and template in old bills.
create table raw_inventory (
    account        varchar not null,
    kind           varchar not null,       -- pod | endpoint | template | network_volume | gpu_type | cluster | graphql_endpoint | serverless_discount
    id             varchar not null,
    valid_from     timestamptz not null,
    valid_to       timestamptz not null,
    first_seen_at  timestamptz not null,   -- when this version was first read
    last_seen_at   timestamptz not null,   -- the last read that still returned this version
    deleted_at     timestamptz,            -- set on the current version once the object is gone from its list
    content_hash   varchar not null,
    doc            json not null,
    _load_id       varchar not null
);
