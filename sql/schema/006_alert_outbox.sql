-- 006_alert_outbox: what each channel still owes. Evaluation queues one row per (event, channel) in the same
-- transaction that records the event; delivery runs with the database closed, and a second short session records
-- the outcome. A row stays pending until the channel takes it (sent) or it is older than alerts.outbox.maxAgeHours
-- (expired, with the reason), so an alert that failed during an outage goes out on the next run instead of being
-- lost.
create table _meta_alert_outbox (
    event_id         varchar not null,
    channel          varchar not null,         -- stdout | file:<path> | webhook:<name> | email
    position         integer not null,         -- order within its evaluation, so "oldest first" is total
    queued_at        timestamptz not null,
    status           varchar not null,         -- pending | sent | expired (too old) | rejected (the receiver said no: 4xx)
    attempts         integer not null default 0,  -- tries over all runs
    last_attempt_at  timestamptz,
    last_error       varchar,                  -- why the last try failed (redacted)
    finished_at      timestamptz,              -- when it was sent, expired or rejected
    expired_reason   varchar,                  -- why it was given up on (expired or rejected)
    primary key (event_id, channel)
);

-- Deliveries that failed before the outbox existed were recorded and then forgotten: owe them again, so they go out
-- on the next run (or expire with their reason when they are older than alerts.outbox.maxAgeHours).
insert into _meta_alert_outbox (event_id, channel, position, queued_at, status, attempts, last_attempt_at, last_error)
select d.event_id, d.channel, 0, e.created_at, 'pending', d.attempts, d.delivered_at, d.error
from _meta_alert_deliveries as d
join _meta_alert_events as e using (event_id)
where d.status = 'failed';
