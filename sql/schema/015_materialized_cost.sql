-- 015_materialized_cost: the attributed daily cost as a table that readers read, instead of every query re-deriving
-- it from raw billing through the attribution views. A writing session refreshes it for what its loads changed
-- (src/store/materialize.ts): billing loads mark the windows they replaced, inventory changes are found by
-- comparing the resource timeline with the snapshot the table was computed from, and a change of the view files (an
-- upgrade) recomputes everything.

-- One row per account, family, component, UTC day and resource, attributed and named as of the day's start: the
-- rows of int_cost_attributed_in at grain 'day'. cost_daily selects from it.
create table fct_cost_daily (
    account         varchar not null,
    family          varchar not null,
    component       varchar not null,
    resource_id     varchar,
    resource_name   varchar,
    gpu_type_id     varchar,
    gpu_type_name   varchar,
    data_center_id  varchar,
    template_id     varchar,
    template_name   varchar,
    endpoint_id     varchar,
    endpoint_name   varchar,
    attribution     varchar not null,
    amount          decimal(38,6) not null,
    day             date not null,
    subject_id      uhugeint not null
);

-- What changed since fct_cost_daily was computed: the days [from_day, to_day) of an account and family, for one
-- resource or (resource_id null) all of them; from_day null means from the first day, to_day null to the last.
-- Written in the same transaction as the change, so a killed session leaves the mark for the next one.
create table _meta_cost_changes (
    account      varchar not null,
    family       varchar not null,
    resource_id  varchar,
    from_day     date,
    to_day       date,
    reason       varchar not null,
    marked_at    timestamptz not null
);

-- The resource timeline as fct_cost_daily was last computed from it: one row per resource and stretch of time
-- [valid_from, valid_to) in which what attribution reads (names, links) stays the same, with a fingerprint of it.
create table _meta_timeline_snapshot (
    account      varchar not null,
    family       varchar not null,
    resource_id  varchar not null,
    valid_from   timestamptz not null,
    valid_to     timestamptz not null,
    fingerprint  uhugeint not null
);

-- Per account and family: how many day and hour records the raw tables held, and their total, when fct_cost_daily
-- was computed – a change nobody marked (a write outside the loader) is still noticed.
create table _meta_cost_inputs (
    account       varchar not null,
    family        varchar not null,
    record_count  bigint not null,
    total_amount  decimal(38,6) not null
);

-- One row per materialised table: what it was computed from (a hash of the view files) and when.
create table _meta_materialized (
    name          varchar primary key,
    inputs_hash   varchar not null,
    refreshed_at  timestamptz not null,
    row_count     bigint not null
);

-- One row per fct_cost_daily row, allocation category and value after splits: int_cost_allocated under the rules
-- in _meta_allocation_* when it was computed. cost_allocated and rpt_allocation_warnings read it.
create table fct_cost_allocated (
    account        varchar not null,
    category       varchar not null,
    value          varchar not null,
    rule           integer,
    split_from     varchar,
    split          integer,
    is_kept        boolean not null,
    day            date not null,
    family         varchar not null,
    component      varchar not null,
    resource_id    varchar,
    resource_name  varchar,
    template_name  varchar,
    endpoint_name  varchar,
    gpu_type_name  varchar,
    subject_id     uhugeint not null,
    amount         decimal(38,6) not null
);

-- One row per account, family, UTC day and resource with a GPU amount: int_gpu_hours_daily (estimated GPU-hours
-- from the catalog's list prices) when it was computed. gpu_hours_daily reads it.
create table fct_gpu_hours_daily (
    account             varchar not null,
    family              varchar not null,
    day                 date not null,
    resource_id         varchar,
    resource_name       varchar,
    endpoint_name       varchar,
    gpu_type_id         varchar,
    gpu_type_name       varchar,
    gpu_count           integer,
    cloud               varchar,
    billed_cost         decimal(38,6),
    list_unit_price     decimal(18,6),
    gpu_hours           decimal(38,6),
    running_hours       decimal(38,6),
    list_cost           decimal(38,6),
    effective_discount  decimal(38,6),
    estimated           boolean
);
