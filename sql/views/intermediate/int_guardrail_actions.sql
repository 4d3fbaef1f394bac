-- One row per guardrail action (kind act) of _meta_guardrail_actions (issue 40 §3), as of report_clock: the audit
-- row, when its first completed undo put the resource back (undone_at), and for a done action the hours it has held
-- – from its completion until undone_at or the clock (hours_stopped).
create or replace view int_guardrail_actions as
with audit as (
    select * from stg_guardrail_actions
),

clock as (
    select as_of from int_report_clock
),

actions as (
    select * from audit where kind = 'act'
),

undos as (
    select undoes, min(completed_at) as undone_at,
    from audit
    where kind = 'undo' and outcome in ('done', 'no-op')
    group by undoes
),

final as (
    select
        a.*,
        u.undone_at,
        case when a.outcome = 'done'
            then greatest(date_diff('second', a.completed_at, coalesce(u.undone_at, clock.as_of)), 0) / 3600.0
        end as hours_stopped,
    from actions as a
    left join undos as u on u.undoes = a.action_id
    cross join clock
)

select * from final;
