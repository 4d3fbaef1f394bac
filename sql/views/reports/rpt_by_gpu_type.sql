-- One row per account and GPU type that had cost in the current or previous month of report_clock, plus a '(none)'
-- row for CPU, storage and other cost without a GPU: month to date, the previous month to the same day and in full,
-- and the change. Serverless cost counts under its pool's single catalog type, else under the pool ids; then
-- month_to_last_day and previous_month_to_last_day, the same without the open day (what rpt_top_movers compares).
create or replace view rpt_by_gpu_type as
with windowed as (
    select * from cost_month_windows
),

gpu_types as (
    select * from dim_gpu_type
),

-- each GPU type's windows and change, its dim_gpu_type row and what its bills last called it (int_subject_months_in)
months as (
    select * from int_subject_months_in(windowed, gpu_types, 'gpu_type_id', {'gpu_type_name': arg_max(gpu_type_name, day)})
),

final as (
    select
        account,
        subject_key as gpu_type_id,
        case
            when subject_key is null then '(none)'
            else coalesce(subject.gpu_type_name, billed.gpu_type_name, subject_key)
        end as gpu_type_name,
        * exclude (account, subject_key, billed, subject),
    from months
)

select * from final;
