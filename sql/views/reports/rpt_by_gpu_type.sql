-- One row per account and GPU type that had cost in the current or previous month of report_clock, plus a '(none)'
-- row for CPU, storage and other cost without a GPU: month to date, the previous month to the same day and in full,
-- and the change. Serverless cost counts under its pool's single catalog type, else under the pool ids; then
-- month_to_last_day and previous_month_to_last_day, the same without the open day (what rpt_top_movers compares).
create or replace view rpt_by_gpu_type as
with windowed as (
    select * from int_cost_month_windows
),

gpu_types as (
    select * from dim_gpu_type
),

per_gpu_type as (
    select
        account,
        gpu_type_id,
        arg_max(gpu_type_name, day) as billed_name,
        -- the windows' amounts (int_cost_month_windows)
        sum(columns(c -> list_contains(int_month_windows(), c))),
    from windowed
    group by all
),

named as (
    select
        p.account,
        p.gpu_type_id,
        case when p.gpu_type_id is null then '(none)' else coalesce(g.gpu_type_name, p.billed_name, p.gpu_type_id) end
            as gpu_type_name,
        p.* exclude (account, gpu_type_id, billed_name),
    from per_gpu_type as p
    left join gpu_types as g
        on g.account = p.account and g.gpu_type_id = p.gpu_type_id
),

-- the windows with the change between them (int_month_change_in)
final as (
    select * from int_month_change_in(named)
)

select * from final;
