import { describe, expect, it } from 'vitest';
import { addInventory, billPods, billServerless, billVolumes, setWatermark, viewStore, viewStoreForSuite } from '../helpers/view-store.ts';

// as of 2026-10-03 12:00: October to date = 10-01 … 10-03 (open day included); September to the same day = 09-01 … 09-03
const AS_OF = '2026-10-03T12:00:00Z';

describe('report views', () => {
  const store = viewStoreForSuite(async (store) => {
    await addInventory(store, [
      { kind: 'gpu_type', id: 'NVIDIA L4', doc: { name: 'L4', pool: 'ADA_24' } },
      { kind: 'template', id: 't-vllm', doc: { name: 'vLLM', image: 'vllm:1' } },
      { kind: 'template', id: 't-embed', doc: { name: 'worker-embedding', image: 'embed:1', serverless: true } },
      { kind: 'pod', id: 'p-big', doc: { name: 'big', gpu: { id: 'NVIDIA L4', count: 1 }, template: 't-vllm' } },
      { kind: 'pod', id: 'p-small', doc: { name: 'small', gpu: { id: 'NVIDIA L4', count: 1 }, template: null, image: 'custom:1' } },
      { kind: 'endpoint', id: 'e1', doc: { name: 'embed-api', gpu: { pools: ['ADA_24'], count: 1 }, workers: { min: 2, max: 4 } } },
      { kind: 'graphql_endpoint', id: 'e1', doc: { name: 'embed-api', templateId: 't-embed', workersMin: 2 } },
    ]);
    await billPods(store, [
      { pod: 'p-big', start: '2026-09-01T00:00:00Z', gpu: '10.000000' },
      { pod: 'p-big', start: '2026-09-02T00:00:00Z', gpu: '10.000000' },
      { pod: 'p-big', start: '2026-09-20T00:00:00Z', gpu: '30.000000' },
      { pod: 'p-big', start: '2026-10-01T00:00:00Z', gpu: '20.000000' },
      // nothing billed on 10-02: a zero day
      { pod: 'p-big', start: '2026-10-03T00:00:00Z', gpu: '5.000000' },
      { pod: 'p-small', start: '2026-10-01T00:00:00Z', gpu: '1.000000', disk: '0.500000' },
      // after as_of_date: not counted
      { pod: 'p-big', start: '2026-10-04T00:00:00Z', gpu: '99.000000' },
    ]);
    await billServerless(store, [
      { endpoint: 'e1', start: '2026-09-03T00:00:00Z', gpu: '4.000000' },
      { endpoint: 'e1', start: '2026-10-01T00:00:00Z', gpu: '6.000000' },
    ]);
    await billVolumes(store, [{ volume: 'v-unknown', start: '2026-10-01T00:00:00Z', standard: '2.000000' }]);
    await setWatermark(store, { source: 'pods', size: 'day', from: '2026-09-01T00:00:00Z', through: '2026-10-05T00:00:00Z', complete: '2026-10-04T00:00:00Z', runStatus: 'success' });
    await store.run(`set variable gpuledger_as_of = '${AS_OF}'`);
  });

  it('int_change_pct: the change in percent of the amount before, 4 decimals, null from nothing', async () => {
    const rows = await store.all(
      `select int_change_pct(now_::decimal(18,6), before_::decimal(18,6))::varchar as pct, typeof(int_change_pct(now_::decimal(18,6), before_::decimal(18,6))) as type
       from (values (4, 3, 1), (2, 3, 2), (0, 21.5, 3), (5, 0, 4), (5, null, 5)) as t(now_, before_, n) order by n`,
    );
    expect(rows).toEqual([
      { pct: '33.3333', type: 'DECIMAL(18,4)' },
      { pct: '-33.3333', type: 'DECIMAL(18,4)' },
      { pct: '-100.0000', type: 'DECIMAL(18,4)' },
      { pct: null, type: 'DECIMAL(18,4)' },
      { pct: null, type: 'DECIMAL(18,4)' },
    ]);
  });

  it('rpt_spend_daily: one row per day up to as_of_date, zero days included, with the change against the day before', async () => {
    const rows = await store.all(
      `select day::varchar as day, amount, previous_amount, change_amount, change_pct, is_complete from rpt_spend_daily
       where family = 'pod' and day >= '2026-09-30' order by day`,
    );
    expect(rows).toEqual([
      { day: '2026-09-30', amount: '0.000000', previous_amount: '0.000000', change_amount: '0.000000', change_pct: null, is_complete: true },
      { day: '2026-10-01', amount: '21.500000', previous_amount: '0.000000', change_amount: '21.500000', change_pct: null, is_complete: true },
      { day: '2026-10-02', amount: '0.000000', previous_amount: '21.500000', change_amount: '-21.500000', change_pct: '-100.0000', is_complete: true },
      { day: '2026-10-03', amount: '5.000000', previous_amount: '0.000000', change_amount: '5.000000', change_pct: null, is_complete: false },
    ]);
  });

  it('rpt_spend_monthly and rpt_spend_weekly: calendar months and ISO weeks with the previous period', async () => {
    const months = await store.all(`select month::varchar as month, amount, previous_amount, change_pct, is_complete from rpt_spend_monthly where family = 'pod' order by month`);
    expect(months).toEqual([
      { month: '2026-09-01', amount: '50.000000', previous_amount: null, change_pct: null, is_complete: true },
      { month: '2026-10-01', amount: '26.500000', previous_amount: '50.000000', change_pct: '-47.0000', is_complete: false },
    ]);
    const weeks = await store.all(`select week_start::varchar as week_start, amount, is_complete from rpt_spend_weekly where family = 'pod' and week_start >= '2026-09-14' order by 1`);
    expect(weeks).toEqual([
      { week_start: '2026-09-14', amount: '30.000000', is_complete: true },
      { week_start: '2026-09-21', amount: '0.000000', is_complete: true },
      { week_start: '2026-09-28', amount: '26.500000', is_complete: false },
    ]);
  });

  it('rpt_by_template: month to date against the previous month to the same day, with a (none) row', async () => {
    const rows = await store.all(`select template_id, template_name, attribution, month_to_date, previous_month_to_date, previous_month, change_amount, change_pct from rpt_by_template order by template_name`);
    expect(rows).toEqual([
      { template_id: null, template_name: '(none)', attribution: 'unknown', month_to_date: '3.500000', previous_month_to_date: '0.000000', previous_month: '0.000000', change_amount: '3.500000', change_pct: null },
      { template_id: 't-vllm', template_name: 'vLLM', attribution: 'inventory', month_to_date: '25.000000', previous_month_to_date: '20.000000', previous_month: '50.000000', change_amount: '5.000000', change_pct: '25.0000' },
      { template_id: 't-embed', template_name: 'worker-embedding', attribution: 'graphql', month_to_date: '6.000000', previous_month_to_date: '4.000000', previous_month: '4.000000', change_amount: '2.000000', change_pct: '50.0000' },
    ]);
  });

  it('rpt_by_endpoint and rpt_by_gpu_type: Serverless endpoints with workers.min, GPU types with a (none) row', async () => {
    expect(await store.all(`select endpoint_id, endpoint_name, template_name, workers_min, month_to_date, previous_month_to_date from rpt_by_endpoint`)).toEqual([
      { endpoint_id: 'e1', endpoint_name: 'embed-api', template_name: 'worker-embedding', workers_min: 2, month_to_date: '6.000000', previous_month_to_date: '4.000000' },
    ]);
    expect(await store.all(`select gpu_type_id, gpu_type_name, month_to_date from rpt_by_gpu_type order by gpu_type_name`)).toEqual([
      { gpu_type_id: null, gpu_type_name: '(none)', month_to_date: '2.000000' },
      // the endpoint's pool ADA_24 holds one catalog type here (L4), so its cost counts under L4
      { gpu_type_id: 'NVIDIA L4', gpu_type_name: 'L4', month_to_date: '32.500000' },
    ]);
  });

  it('rpt_by_endpoint: endpoints the inventory never knew stay one row each, under the billed endpoint id', async () => {
    // their cost rows carry no endpoint_id (no timeline stretch): grouping by it would fold them into one null row
    const bare = await viewStore();
    try {
      await billServerless(bare, [
        { endpoint: 'e-gone', start: '2026-10-01T00:00:00Z', gpu: '3.000000' },
        { endpoint: 'e-old', start: '2026-09-02T00:00:00Z', gpu: '1.000000' },
        { endpoint: 'e-old', start: '2026-10-02T00:00:00Z', gpu: '2.000000' },
      ]);
      await setWatermark(bare, { source: 'serverless', size: 'day', from: '2026-09-01T00:00:00Z', through: '2026-10-05T00:00:00Z' });
      await bare.run(`set variable gpuledger_as_of = '${AS_OF}'`);
      expect(await bare.all(`select endpoint_id, endpoint_name, workers_min, month_to_date, previous_month_to_date from rpt_by_endpoint order by endpoint_id`)).toEqual([
        { endpoint_id: 'e-gone', endpoint_name: null, workers_min: null, month_to_date: '3.000000', previous_month_to_date: '0.000000' },
        { endpoint_id: 'e-old', endpoint_name: null, workers_min: null, month_to_date: '2.000000', previous_month_to_date: '1.000000' },
      ]);
    } finally {
      await bare.close();
    }
  });

  it('rpt_top_movers: whole days only – the open day is left out on both sides', async () => {
    const rows = await store.all(`select dimension, name, month_to_last_day, previous_month_to_last_day, change_amount from rpt_top_movers order by dimension, name`);
    // vLLM moved by 5.00 month to date only through the open day (10-03, billed so far): to the last whole day it did not move
    expect(rows).toEqual([
      { dimension: 'Endpoint', name: 'embed-api', month_to_last_day: '6.000000', previous_month_to_last_day: '0.000000', change_amount: '6.000000' },
      { dimension: 'GPU type', name: '(none)', month_to_last_day: '2.000000', previous_month_to_last_day: '0.000000', change_amount: '2.000000' },
      { dimension: 'GPU type', name: 'L4', month_to_last_day: '27.500000', previous_month_to_last_day: '20.000000', change_amount: '7.500000' },
      { dimension: 'Template', name: '(none)', month_to_last_day: '3.500000', previous_month_to_last_day: '0.000000', change_amount: '3.500000' },
      { dimension: 'Template', name: 'worker-embedding', month_to_last_day: '6.000000', previous_month_to_last_day: '0.000000', change_amount: '6.000000' },
    ]);
  });

  it('rpt_top_resources: ranked by month to date', async () => {
    const rows = await store.all(`select rank, family, resource_id, resource_name, month_to_date, previous_month from rpt_top_resources order by rank`);
    expect(rows).toEqual([
      { rank: '1', family: 'pod', resource_id: 'p-big', resource_name: 'big', month_to_date: '25.000000', previous_month: '50.000000' },
      { rank: '2', family: 'serverless', resource_id: 'e1', resource_name: 'embed-api', month_to_date: '6.000000', previous_month: '4.000000' },
      { rank: '3', family: 'storage', resource_id: 'v-unknown', resource_name: null, month_to_date: '2.000000', previous_month: '0.000000' },
      { rank: '4', family: 'pod', resource_id: 'p-small', resource_name: 'small', month_to_date: '1.500000', previous_month: '0.000000' },
    ]);
  });

  it('rpt_data_freshness: the watermarks with the last run status', async () => {
    expect(await store.all(`select source, bucket_size, loaded_through::varchar as loaded_through, complete_through::varchar as complete_through, last_run_status from rpt_data_freshness`)).toEqual([
      { source: 'pods', bucket_size: 'day', loaded_through: '2026-10-05 00:00:00+00', complete_through: '2026-10-04 00:00:00+00', last_run_status: 'success' },
    ]);
  });

  it('every rpt_* view of the contract answers with its contract columns first', async () => {
    const contract: Record<string, string[]> = {
      rpt_spend_daily: ['account', 'day', 'family', 'amount', 'previous_amount', 'change_amount', 'change_pct', 'is_complete'],
      rpt_spend_weekly: ['account', 'week_start', 'family', 'amount', 'previous_amount', 'change_amount', 'change_pct', 'is_complete'],
      rpt_spend_monthly: ['account', 'month', 'family', 'amount', 'previous_amount', 'change_amount', 'change_pct', 'is_complete'],
      rpt_by_template: ['account', 'template_id', 'template_name', 'attribution', 'month_to_date', 'previous_month_to_date', 'previous_month', 'change_amount', 'change_pct'],
      rpt_by_endpoint: ['account', 'endpoint_id', 'endpoint_name', 'template_name', 'workers_min', 'month_to_date', 'previous_month_to_date', 'previous_month', 'change_amount', 'change_pct'],
      rpt_by_gpu_type: ['account', 'gpu_type_id', 'gpu_type_name', 'month_to_date', 'previous_month_to_date', 'previous_month', 'change_amount', 'change_pct'],
      rpt_top_resources: ['account', 'rank', 'family', 'resource_id', 'resource_name', 'gpu_type_name', 'template_name', 'endpoint_name', 'month_to_date', 'previous_month_to_date', 'previous_month', 'change_amount', 'change_pct'],
      rpt_month_forecast: ['account', 'family', 'month_start', 'as_of', 'days_elapsed', 'days_in_month', 'month_to_date', 'forecast', 'forecast_low', 'forecast_high', 'previous_month_same_day', 'previous_month'],
      rpt_month_cumulative: ['account', 'day', 'amount', 'cumulative_amount', 'is_forecast', 'forecast_cumulative', 'forecast_low_cumulative', 'forecast_high_cumulative'],
      rpt_waste: ['account', 'finding_id', 'kind', 'family', 'resource_id', 'resource_name', 'monthly_cost', 'last_30_days_amount', 'reason'],
      rpt_reconciliation: ['account', 'bucket_size', 'bucket_start', 'family', 'aggregate_amount', 'family_amount', 'difference'],
      rpt_data_freshness: ['account', 'source', 'bucket_size', 'loaded_from', 'loaded_through', 'complete_through', 'last_success_at', 'last_run_status'],
      cost_daily: ['account', 'family', 'component', 'resource_id', 'resource_name', 'gpu_type_id', 'gpu_type_name', 'data_center_id', 'template_id', 'template_name', 'endpoint_id', 'endpoint_name', 'attribution', 'amount', 'day'],
      dim_resource: ['account', 'family', 'resource_id', 'resource_name', 'resource_type', 'gpu_type_id', 'gpu_type_name', 'gpu_count', 'cloud', 'data_center_id', 'template_id', 'template_name', 'endpoint_id', 'endpoint_name', 'status', 'created_at', 'deleted_at', 'first_billed_day', 'last_billed_day'],
    };
    for (const [view, columns] of Object.entries(contract)) {
      const rows = await store.all<{ column_name: string }>(
        `select column_name from information_schema.columns where table_name = $1 order by ordinal_position`,
        [view],
      );
      expect(rows.map((r) => r.column_name).slice(0, columns.length), view).toEqual(columns);
    }
    const money = await store.all(
      `select table_name, column_name, data_type from information_schema.columns
       where table_name like 'rpt_%' and column_name in ('amount', 'month_to_date', 'forecast', 'difference', 'monthly_cost') and data_type not like 'DECIMAL%'`,
    );
    expect(money).toEqual([]);
  });
});
