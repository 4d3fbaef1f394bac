-- 019_alert_mutes: alerts silenced on purpose (`gpuledger alerts mute <key> --until <time>`). One row per mute:
-- mute_key is an alert key (one incident or finding, as the dry run and the alerts page show it) or a rule name
-- (budget, anomaly, waste, data_quality, runway, unit_cost: every alert of that rule). A mute is in force from
-- muted_at until muted_until, or until unmuted_at when `alerts unmute` ended it early; rows are kept after they
-- end, so a back-test (--as-of) knows what was muted then. While muted, an alert's events are neither sent nor
-- recorded: its state stays as it was, and what it would have said goes out on the first run after the mute ends.
create table _meta_alert_mutes (
    mute_key      varchar not null,
    muted_at      timestamptz not null,
    muted_until   timestamptz not null,
    unmuted_at    timestamptz,
    primary key (mute_key, muted_at)
);
