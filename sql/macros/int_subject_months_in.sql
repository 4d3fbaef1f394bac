-- A table macro: one row per account and subject – the value of the column named by `key` – of the relation named
-- `windowed` (rows of cost_month_windows, with that column): account, subject_key, billed (the struct `billed`
-- makes of the subject's rows: aggregates, such as its latest billed name), subject (the row of the relation named
-- `subjects`, the subject's dimension, with the same key: null when it has none), then the subject's month windows
-- with their change (int_month_change_in). The view names the subject from these, by its own rule. What
-- rpt_by_endpoint, rpt_by_gpu_type and rpt_by_template share, said once.
create or replace macro int_subject_months_in(windowed, subjects, key, billed) as table
with per_subject as (
    select
        account,
        columns(c -> c = key) as subject_key,
        billed as billed,
        -- the windows' amounts (cost_month_windows)
        sum(columns(c -> list_contains(int_month_windows(), c))),
    from query_table(windowed)
    group by all
),

keyed_subjects as (
    select columns(c -> c = key) as subject_key, *,
    from query_table(subjects)
),

named as (
    select
        p.account,
        p.subject_key,
        p.billed,
        s as subject,
        p.* exclude (account, subject_key, billed),
    from per_subject as p
    left join keyed_subjects as s
        on s.account = p.account and s.subject_key = p.subject_key
),

-- the windows with the change between them (int_month_change_in)
final as (
    select * from int_month_change_in(named)
)

select * from final;
