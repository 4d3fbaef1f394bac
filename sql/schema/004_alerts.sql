-- 004_alerts: alert state, so a condition alerts once, again only when it escalates, and once more when it clears.
-- _meta_alert_state: one row per condition gpuledger has ever alerted on (alert_key is stable across runs: the
-- rule, account and series or finding), with the level it last alerted at and whether it is still firing.
create table _meta_alert_state (
    alert_key         varchar primary key,
    rule              varchar not null,        -- budget | anomaly | waste | data_quality
    account           varchar not null,        -- '*' for a rule over all accounts
    status            varchar not null,        -- firing | resolved
    level             integer not null,        -- higher = worse; an alert is sent again only when this rises
    severity          varchar not null,        -- info | warning | critical
    title             varchar not null,
    first_fired_at    timestamptz not null,
    last_notified_at  timestamptz not null,
    last_seen_at      timestamptz not null,    -- the last evaluation that found the condition
    resolved_at       timestamptz,
    details           json
);

-- _meta_alert_events: one row per alert sent (fired, escalated, resolved), with what was said.
create table _meta_alert_events (
    event_id      varchar primary key,
    alert_key     varchar not null,
    event         varchar not null,            -- fired | escalated | resolved
    rule          varchar not null,
    account       varchar not null,
    severity      varchar not null,
    level         integer not null,
    title         varchar not null,
    message       varchar not null,
    as_of         timestamptz not null,        -- the moment the rules were evaluated at (--as-of or the data horizon)
    created_at    timestamptz not null,
    details       json
);

-- _meta_alert_deliveries: one row per event and channel: whether it got there, after how many tries, and why not.
create table _meta_alert_deliveries (
    event_id      varchar not null,
    channel       varchar not null,            -- stdout | file:<path> | webhook:<name> | email
    status        varchar not null,            -- sent | failed
    attempts      integer not null,
    error         varchar,
    delivered_at  timestamptz not null,
    primary key (event_id, channel)
);
