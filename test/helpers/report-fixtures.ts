// Shared test fixtures: a real DuckDB file with a small table of our own (so the generic machinery is tested
// without depending on the rpt_* views), report definitions written to a temp folder, and a config.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load.ts';
import type { Config, ConfigInput } from '../../src/config/schema.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { copyMigratedStore } from './view-store.ts';
import { tempDir } from './temp-dir.ts';

/** 3 families × 40 days from 2026-10-01, amounts with 6 decimals that do not add up nicely as doubles. */
export async function fixtureStore(dir: string): Promise<Store> {
  await copyMigratedStore(join(dir, 'test.duckdb'));
  const store = await openStore({ path: join(dir, 'test.duckdb') });
  await store.run(`
    create table fx_spend as
    select
        date '2026-10-01' + (i // 3)::int as day,
        ['pod', 'serverless', 'storage'][(i % 3) + 1] as family,
        ((i * 7919) % 100000 / 1000.0 + 0.000001 * (i % 7))::decimal(18,6) as amount,
        (((i * 104729) % 20000) / 1000.0 - 10)::decimal(18,6) as change_amount,
        ((i * 13) % 400 / 10.0 - 20)::decimal(18,4) as change_pct,
        'res-' || (i % 11) as resource_id,
    from range(120) t(i)
  `);
  return store;
}

export function writeDefinition(dir: string, name: string, text: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

export function testConfig(input: ConfigInput = {}): Config {
  return parseConfig(input, '(test)');
}

export const FIXTURE_REPORT = `
title: Fixture spend
defaultPeriod: month_to_date
sheets:
  - name: Summary
    kind: summary
    blocks:
      - kind: figures
        title: Key figures
        sql: |
          select sum(amount) as total, sum(change_amount) as change_amount, count(*) as records,
                 $budget_monthly as budget
          from fx_spend where day between $period_start and $period_end
        items:
          - { label: Total spend, field: total, note: "change {change_amount}" }
          - { label: Change, field: change_amount, upIsBad: true }
          - { label: Budget, field: budget, hideIfNull: true }
      - kind: table
        title: Largest resources
        sql: |
          select resource_id, sum(amount) as amount, sum(change_amount) as change_amount
          from fx_spend where day between $period_start and $period_end
          group by all order by amount desc
        limit: 5
        columns:
          - { field: resource_id, header: Resource }
          - { field: amount, header: Spend }
          - { field: change_amount, header: Change, upIsBad: true }
    charts:
      - id: daily
        kind: stacked_bars
        title: Daily spend by family
        sql: select day, family, amount from fx_spend where day between $period_start and $period_end
        x: day
        series: family
        value: amount
      - id: cumulative
        kind: cumulative
        title: Cumulative spend
        email: true
        sql: |
          select day, sum(sum(amount)) over (order by day) as actual, null::decimal(18,6) as forecast
          from fx_spend where day between $period_start and $period_end group by day
        x: day
        actual: actual
        forecast: forecast
  - name: Daily
    description: One row per day and family.
    sql: |
      select day, family, amount, change_amount, change_pct, resource_id
      from fx_spend where day between $period_start and $period_end
      order by day, family
    columns:
      - { field: day, header: Day }
      - { field: family, header: Family }
      - { field: amount, header: Amount, total: sum, dataBar: true }
      - { field: change_amount, header: Change, upIsBad: true, total: sum }
      - { field: change_pct, header: Change %, upIsBad: true }
      - { field: resource_id, header: Resource }
  - name: Everything
    view: fx_spend
    where: day between $period_start and $period_end
    orderBy: day, family
`;
