// Stand-ins for the public views with exactly the columns of docs/views-contract.md, over a small deterministic
// cost table: the shipped definitions are checked against the contract's names and against totals that are easy
// to recompute, independent of how the real views compute them (those run in test/integration/report-sync.test.ts).
import type { Store } from '../../src/store/database.ts';
import { readSqlFile } from '../../src/store/sql-files.ts';

const STUBS = [
  `create or replace view report_clock as
   with c as (select coalesce(getvariable('gpuledger_as_of')::timestamptz, timestamptz '2026-11-21 06:00:00+00') as as_of)
   select as_of, as_of::date as as_of_date, date_trunc('month', as_of)::date as month_start,
          (date_trunc('month', as_of) + interval 1 month)::date as next_month_start,
          (date_trunc('month', as_of) - interval 1 month)::date as prev_month_start,
          day(as_of)::integer as day_of_month,
          day(last_day(as_of::date))::integer as days_in_month
   from c`,
  `create or replace view cost_daily as
   select s.* from stub_cost s, report_clock c where s.day <= c.as_of_date`,
  `create or replace view rpt_spend_daily as
   with d as (select account, day, family, sum(amount) as amount from cost_daily group by all)
   select account, day, family, amount,
          lag(amount) over (partition by account, family order by day) as previous_amount,
          amount - lag(amount) over (partition by account, family order by day) as change_amount,
          null::decimal(18,4) as change_pct,
          day < (select as_of_date from report_clock) as is_complete
   from d`,
  `create or replace view rpt_spend_monthly as
   with m as (select account, date_trunc('month', day)::date as month, family, sum(amount) as amount from cost_daily group by all)
   select account, month, family, amount,
          lag(amount) over (partition by account, family order by month) as previous_amount,
          amount - lag(amount) over (partition by account, family order by month) as change_amount,
          null::decimal(18,4) as change_pct, true as is_complete
   from m`,
  `create or replace view stub_windows as
   select c.*, d.*,
          case when d.day >= c.month_start and d.day <= c.as_of_date then d.amount else 0 end as mtd,
          case when d.day >= c.prev_month_start and d.day < c.month_start and day(d.day) <= c.day_of_month then d.amount else 0 end as prev_mtd,
          case when d.day >= c.prev_month_start and d.day < c.month_start then d.amount else 0 end as prev_month
   from cost_daily d, report_clock c`,
  `create or replace view rpt_by_template as
   select account, template_id, coalesce(template_name, '(none)') as template_name, any_value(attribution) as attribution,
          sum(mtd) as month_to_date, sum(prev_mtd) as previous_month_to_date, sum(prev_month) as previous_month,
          sum(mtd) - sum(prev_mtd) as change_amount,
          case when sum(prev_mtd) <> 0 then ((sum(mtd) - sum(prev_mtd)) * 100 / sum(prev_mtd))::decimal(18,4) end as change_pct
   from stub_windows group by account, template_id, template_name`,
  `create or replace view rpt_by_endpoint as
   select account, endpoint_id, endpoint_name, any_value(template_name) as template_name, 1 as workers_min,
          sum(mtd) as month_to_date, sum(prev_mtd) as previous_month_to_date, sum(prev_month) as previous_month,
          sum(mtd) - sum(prev_mtd) as change_amount,
          case when sum(prev_mtd) <> 0 then ((sum(mtd) - sum(prev_mtd)) * 100 / sum(prev_mtd))::decimal(18,4) end as change_pct
   from stub_windows where family = 'serverless' group by account, endpoint_id, endpoint_name`,
  `create or replace view rpt_by_gpu_type as
   select account, gpu_type_id, coalesce(gpu_type_name, '(none)') as gpu_type_name,
          sum(mtd) as month_to_date, sum(prev_mtd) as previous_month_to_date, sum(prev_month) as previous_month,
          sum(mtd) - sum(prev_mtd) as change_amount,
          case when sum(prev_mtd) <> 0 then ((sum(mtd) - sum(prev_mtd)) * 100 / sum(prev_mtd))::decimal(18,4) end as change_pct
   from stub_windows group by account, gpu_type_id, gpu_type_name`,
  `create or replace view rpt_top_resources as
   with r as (
     select account, family, resource_id, any_value(resource_name) as resource_name, any_value(gpu_type_name) as gpu_type_name,
            any_value(template_name) as template_name, any_value(endpoint_name) as endpoint_name,
            sum(mtd) as month_to_date, sum(prev_mtd) as previous_month_to_date, sum(prev_month) as previous_month
     from stub_windows group by account, family, resource_id)
   select account, row_number() over (partition by account order by month_to_date desc, resource_id) as rank, family, resource_id,
          resource_name, gpu_type_name, template_name, endpoint_name, month_to_date, previous_month_to_date, previous_month,
          month_to_date - previous_month_to_date as change_amount, null::decimal(18,4) as change_pct
   from r qualify rank <= 100`,
  `create or replace view rpt_month_forecast as
   with f as (
     select account, 'all' as family, any_value(month_start) as month_start, any_value(as_of) as as_of,
            any_value(day_of_month) as days_elapsed, any_value(days_in_month) as days_in_month,
            sum(mtd) as month_to_date, sum(prev_mtd) as previous_month_same_day, sum(prev_month) as previous_month
     from stub_windows group by account)
   select account, family, month_start, as_of, days_elapsed, days_in_month, month_to_date,
          (month_to_date * days_in_month / days_elapsed)::decimal(18,6) as forecast,
          (month_to_date * days_in_month / days_elapsed * 0.9)::decimal(18,6) as forecast_low,
          (month_to_date * days_in_month / days_elapsed * 1.1)::decimal(18,6) as forecast_high,
          previous_month_same_day, previous_month
   from f`,
  `create or replace view rpt_month_cumulative as
   with c as (select * from report_clock),
   days as (select account, unnest(generate_series(c.month_start, c.next_month_start - 1, interval 1 day))::date as day
            from (select distinct account from cost_daily), c),
   actual as (select account, day, sum(amount) as amount from cost_daily, c where day >= c.month_start and day <= c.as_of_date group by all),
   f as (select account, forecast, forecast_low, forecast_high, days_in_month, month_to_date from rpt_month_forecast where family = 'all')
   select d.account, d.day, a.amount,
          case when d.day <= c.as_of_date then sum(coalesce(a.amount, 0)) over (partition by d.account order by d.day) end as cumulative_amount,
          d.day > c.as_of_date as is_forecast,
          case when d.day > c.as_of_date then f.month_to_date + (f.forecast - f.month_to_date) * (day(d.day) - c.day_of_month) / (f.days_in_month - c.day_of_month) end as forecast_cumulative,
          case when d.day > c.as_of_date then f.month_to_date + (f.forecast_low - f.month_to_date) * (day(d.day) - c.day_of_month) / (f.days_in_month - c.day_of_month) end as forecast_low_cumulative,
          case when d.day > c.as_of_date then f.month_to_date + (f.forecast_high - f.month_to_date) * (day(d.day) - c.day_of_month) / (f.days_in_month - c.day_of_month) end as forecast_high_cumulative
   from days d cross join c left join actual a using (account, day) left join f using (account)`,
  `create or replace view rpt_waste as
   select 'prod' as account, 'unattached_volume:prod:vol-1' as finding_id, 'unattached_volume' as kind, 'storage' as family,
          'vol-1' as resource_id, 'scratch volume' as resource_name, 21.000000::decimal(18,6) as monthly_cost,
          20.300000::decimal(18,6) as last_30_days_amount,
          'Network volume scratch volume is attached to no pod and costs $21.00 a month.' as reason`,
  `create or replace view rpt_reconciliation as
   select 'prod' as account, 'day' as bucket_size, timestamptz '2026-11-03 00:00:00+00' as bucket_start, 'pod' as family,
          10.000000::decimal(18,6) as aggregate_amount, 9.990000::decimal(18,6) as family_amount, 0.010000::decimal(18,6) as difference`,
  `create or replace view rpt_data_freshness as
   select 'prod' as account, 'pods' as source, 'day' as bucket_size, timestamptz '2026-08-01 00:00:00+00' as loaded_from,
          timestamptz '2026-11-21 06:00:00+00' as loaded_through, timestamptz '2026-11-19 00:00:00+00' as complete_through,
          timestamptz '2026-11-21 06:05:00+00' as last_success_at, 'success' as last_run_status`,
];

const REPORT_VIEWS = ['rpt_summary_figures', 'rpt_top_movers', 'rpt_spend_daily_by_family', 'rpt_spend_monthly_by_family', 'rpt_by_category'];
/** Allocation over the stand-in cost_daily: the real views (no categories configured here, so rpt_by_category is empty). */
const ALLOCATION_VIEWS = ['int_allocation_rule_hits', 'int_allocation_matches', 'int_allocation_direct', 'int_allocation_splits', 'cost_allocated'];

/**
 * The stand-in cost: two accounts (one simulated), pods/serverless/storage, Sep 1 – Nov 21 2026, amounts with six
 * decimals; `rows_per_day` controls the detail size.
 */
export async function installContractStubs(store: Store, rowsPerDay = 30): Promise<void> {
  await store.run(`
    create table stub_cost as
    with days as (select unnest(generate_series(date '2026-09-01', date '2026-11-21', interval 1 day))::date as day),
    n as (select unnest(range(${rowsPerDay})) as i)
    select
        days.day,
        case when n.i % 5 = 0 then 'demo' else 'prod' end as account,
        ['pod', 'serverless', 'storage'][n.i % 3 + 1] as family,
        ['gpu', 'cpu', 'disk'][(n.i // 3) % 3 + 1] as component,
        'res-' || (n.i % 17) as resource_id,
        'Resource ' || (n.i % 17) as resource_name,
        case when n.i % 3 = 2 then null else 'NVIDIA A100 80GB' end as gpu_type_id,
        case when n.i % 3 = 2 then null else 'A100 80GB' end as gpu_type_name,
        'EU-RO-1' as data_center_id,
        'tpl-' || (n.i % 4) as template_id,
        'Template ' || (n.i % 4) as template_name,
        case when n.i % 3 = 1 then 'ep-' || (n.i % 2) end as endpoint_id,
        case when n.i % 3 = 1 then 'Endpoint ' || (n.i % 2) end as endpoint_name,
        'template' as attribution,
        ((hash(days.day, n.i) % 900000000) / 1000000.0 + 0.000001)::decimal(18,6) as amount,
    from days, n
  `);
  for (const sql of STUBS) await store.run(sql);
  // the report views the shipped definitions read that are built only on the contract views above: their real SQL
  for (const name of ALLOCATION_VIEWS) await store.run(readSqlFile('views/marts', name));
  for (const name of REPORT_VIEWS) await store.run(readSqlFile('views/reports', name));
  await store.run(`insert into _meta_accounts values
    ('demo', 'http://127.0.0.1:8787', true, timestamptz '2026-09-01 00:00:00+00', timestamptz '2026-11-21 06:00:00+00'),
    ('prod', 'https://api.runpod.io', false, timestamptz '2026-09-01 00:00:00+00', timestamptz '2026-11-21 06:00:00+00')`);
}
