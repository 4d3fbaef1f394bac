-- A table macro: one row for the buckets of first_day … last_day (inclusive, by bucket start) that both the aggregate
-- route and the per-family routes answered for (rpt_reconciliation, status agrees or differs): how many were compared
-- and differ, at which sizes, both routes' totals over them and the difference, the buckets only one route was loaded
-- for (not compared – never added to one side's total), and the verdict in words. The Reconciliation sheet's figures.
create or replace macro rpt_reconciliation_summary_in(first_day, last_day) as table
with period as (
    select * from rpt_reconciliation
    where bucket_start >= first_day and bucket_start < last_day + 1
),

compared as (
    select * from period where status in ('agrees', 'differs')
),

counts as (
    select
        (select count(*) from compared) as buckets_compared,
        (select count(*) from compared where status = 'differs') as buckets_differing,
        (select sum(difference) from compared where status = 'differs') as differing_amount,
        (select count(*) from period where status not in ('agrees', 'differs')) as buckets_not_compared,
        (select string_agg(distinct bucket_size, ' and ' order by bucket_size) from compared) as bucket_sizes,
        (select sum(aggregate_amount) from compared) as aggregate_amount,
        (select sum(family_amount) from compared) as family_amount,
        (select sum(difference) from compared) as difference,
),

final as (
    select
        case
            when buckets_compared = 0 then 'No bucket of the period was loaded from both routes: nothing to compare'
            when buckets_differing = 0 then 'All ' || buckets_compared || ' buckets (' || bucket_sizes || ') agree to the cent'
            else buckets_differing || ' of ' || buckets_compared || ' buckets (' || bucket_sizes || ') differ, by '
                || case when differing_amount < 0 then '-' else '' end
                || '$' || format('{:,.2f}', round(abs(differing_amount), 2)) || ' in all'
        end as verdict,
        *,
        nullif(buckets_not_compared, 0) as not_compared,
    from counts
)

select * from final;
