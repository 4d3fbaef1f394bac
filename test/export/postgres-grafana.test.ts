// The Grafana bundle (grafana/) over a real mirror (issue 42 §2): a PostgreSQL filled by `export postgres` from a
// synced simulator account, then every panel's SQL of every dashboard, expanded as Grafana's PostgreSQL data source
// expands its macros and variables (test/helpers/grafana-panel-sql.ts), run as the README's read-only role: each returns rows,
// with the columns the panel's visualisation reads, and totals equal to the ledger in DuckDB to the micro-dollar.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import pg from 'pg';
import { exportPostgres } from '../../src/export/postgres/export-postgres.ts';
import { resolvePostgresTarget } from '../../src/export/postgres/target.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { Row } from '../../src/store/database.ts';
import { withReader } from '../../src/store/shared-database.ts';
import { postgresExportFixture, requirePostgres } from '../helpers/postgres.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { expandPanelSql, panelQueries, type GrafanaContext } from '../helpers/grafana-panel-sql.ts';

const PASSWORD_ENV = 'GPULEDGER_TEST_PG_PASSWORD';
const READER = { user: 'grafana_reader', password: `reader-${Math.random().toString(36).slice(2)}` };
const BUDGET = '10000';

/** An exact decimal without its trailing zeros, so PostgreSQL's numeric and DuckDB's DECIMAL text compare. */
const exact = (v: unknown): string => {
  const s = String(v);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
};
/** Adds exact decimals (as integers of 10^-9): no float ever holds a figure here. */
const add = (values: readonly unknown[]): string => {
  const total = values.reduce<bigint>((n, v) => {
    const [int, frac = ''] = String(v).split('.');
    const sign = int!.startsWith('-') ? -1n : 1n;
    return n + sign * (BigInt(int!.replace('-', '')) * 10n ** 9n + BigInt(frac.padEnd(9, '0').slice(0, 9)));
  }, 0n);
  const abs = total < 0n ? -total : total;
  return exact(`${total < 0n ? '-' : ''}${abs / 10n ** 9n}.${String(abs % 10n ** 9n).padStart(9, '0')}`);
};
const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

describe.runIf(requirePostgres())('the Grafana dashboards over the PostgreSQL mirror', () => {
  const pgx = suiteFixture(async () => {
    const fixture = await postgresExportFixture('gpuledger-pg-grafana-', copySyncedDatabase);
    const config = parseConfig({ export: { postgres: { url: fixture.server.url, passwordEnv: PASSWORD_ENV } } }, 'test');
    await withReader(fixture.tmp.db, (store) => exportPostgres(store, resolvePostgresTarget(config), { env: { [PASSWORD_ENV]: fixture.server.password } }));
    // the README's read-only role: what Grafana's data source connects as
    for (const sql of [
      `create role ${READER.user} login password '${READER.password}'`,
      `grant usage on schema gpuledger to ${READER.user}`,
      `grant select on all tables in schema gpuledger to ${READER.user}`,
    ]) await fixture.client.query(sql);
    return fixture;
  });
  const duck = <T extends Row>(sql: string) => withReader(pgx.tmp.db, (s) => s.all<T>(sql));
  const asGrafana = async (sql: string) => {
    const reader = new pg.Client({ host: pgx.server.host, port: pgx.server.port, database: pgx.server.database, ...READER });
    await reader.connect();
    try {
      const r = await reader.query(sql);
      return { columns: r.fields.map((f) => f.name), rows: r.rows as Record<string, unknown>[] };
    } finally {
      await reader.end();
    }
  };
  /** The dashboard's time range over the whole ledger, as Grafana sends it, and its variables. */
  const context = async (): Promise<GrafanaContext> => {
    const [span] = await duck<{ first: string; last: string }>(`select min(day)::varchar as first, max(day)::varchar as last from cost_daily`);
    const accounts = (await duck<{ account: string }>(`select distinct account from cost_daily order by 1`)).map((a) => a.account);
    return { from: new Date(`${span!.first}T00:00:00Z`), to: new Date(`${span!.last}T23:59:59Z`), variables: { account: accounts, budget: BUDGET } };
  };

  /** Per panel: the columns its visualisation reads, and what its rows must add up to in DuckDB. */
  const CHECKS: Record<string, { columns: string[]; ledger: (rows: Record<string, unknown>[]) => Promise<void> }> = {
    'Spend by family': {
      columns: ['time', 'metric', 'amount'],
      ledger: async (rows) => {
        const want = await duck<{ family: string; amount: string; days: string }>(`select family, sum(amount)::varchar as amount, count(distinct day)::varchar as days from cost_daily group by 1 order by 1`);
        const families = [...new Set(rows.map((r) => String(r.metric)))].sort();
        expect(families).toEqual(want.map((w) => w.family));
        for (const w of want) {
          const mine = rows.filter((r) => r.metric === w.family);
          expect({ family: w.family, amount: add(mine.map((r) => r.amount)), days: mine.length }).toEqual({ family: w.family, amount: exact(w.amount), days: Number(w.days) });
        }
      },
    },
    'Month to date against budget': {
      columns: ['month_to_date', 'forecast', 'forecast_low', 'forecast_high', 'budget', 'budget_used_pct'],
      ledger: async (rows) => {
        // the month to date is cost_daily's sum from the month's first day through the forecast's as-of day
        const [want] = await duck<{ mtd: string; ledger: string }>(
          `select (select sum(month_to_date) from rpt_month_forecast where family = 'all')::varchar as mtd,
                  (select sum(amount) from cost_daily as c where exists (select 1 from rpt_month_forecast as f where f.family = 'all' and f.account = c.account and c.day >= f.month_start and c.day <= (f.as_of at time zone 'UTC')::date))::varchar as ledger`,
        );
        expect(rows).toHaveLength(1);
        expect(exact(rows[0]!.month_to_date)).toBe(exact(want!.mtd));
        expect(exact(want!.mtd)).toBe(exact(want!.ledger));
        expect(exact(rows[0]!.budget)).toBe(BUDGET);
      },
    },
    Runway: {
      columns: ['account', 'balance', 'spend_per_hour', 'runway_hours', 'runs_out_at', 'storage_runway_hours', 'observed_at'],
      ledger: async (rows) => {
        const want = await duck<{ account: string; balance: string; runway_hours: string | null }>(`select account, balance::varchar as balance, runway_hours::varchar as runway_hours from rpt_runway order by 1`);
        expect(rows.map((r) => ({ account: r.account, balance: exact(r.balance), runway_hours: r.runway_hours === null ? null : exact(r.runway_hours) }))).toEqual(
          want.map((w) => ({ account: w.account, balance: exact(w.balance), runway_hours: w.runway_hours === null ? null : exact(w.runway_hours) })),
        );
      },
    },
    'Prepaid balance over time': {
      columns: ['time', 'metric', 'balance'],
      ledger: async (rows) => {
        const [want] = await duck<{ n: string; balance: string }>(`select count(*)::varchar as n, sum(balance)::varchar as balance from rpt_runway_history`);
        expect({ n: rows.length, balance: add(rows.map((r) => r.balance)) }).toEqual({ n: Number(want!.n), balance: exact(want!.balance) });
      },
    },
    'Unit costs': {
      columns: ['time', 'metric', 'unit_cost'],
      ledger: async (rows) => {
        const [want] = await duck<{ n: string; unit_cost: string }>(`select count(*)::varchar as n, sum(unit_cost)::varchar as unit_cost from rpt_unit_cost where unit_cost is not null`);
        expect({ n: rows.length, unit_cost: add(rows.map((r) => r.unit_cost)) }).toEqual({ n: Number(want!.n), unit_cost: exact(want!.unit_cost) });
      },
    },
    'Top resources this month': {
      columns: ['account', 'rank', 'resource_name', 'resource_id', 'family', 'gpu_type_name', 'month_to_date', 'previous_month_to_date', 'change_amount'],
      ledger: async (rows) => {
        // each resource's month to date is what cost_daily billed it this month, through the forecast's as-of day
        const want = await duck<{ account: string; resource_id: string; amount: string }>(
          `select c.account, c.resource_id, sum(c.amount)::varchar as amount from cost_daily as c
           join rpt_month_forecast as f on f.account = c.account and f.family = 'all' and c.day >= f.month_start and c.day <= (f.as_of at time zone 'UTC')::date
           group by 1, 2`,
        );
        const byResource = new Map(want.map((w) => [`${w.account}/${w.resource_id}`, exact(w.amount)]));
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) expect({ resource: r.resource_id, amount: exact(r.month_to_date) }).toEqual({ resource: r.resource_id, amount: byResource.get(`${r.account}/${r.resource_id}`) });
      },
    },
    'Anomalies: days far above the family\'s recent days': {
      columns: ['time', 'family', 'amount', 'baseline', 'excess'],
      ledger: async (rows) => {
        const want = await duck<{ family: string; day: string; amount: string }>(`select family, day::varchar as day, sum(amount)::varchar as amount from cost_daily group by 1, 2`);
        const byDay = new Map(want.map((w) => [`${w.family}/${w.day}`, exact(w.amount)]));
        for (const r of rows) {
          expect({ at: `${r.family}/${day(r.time)}`, amount: exact(r.amount) }).toEqual({ at: `${r.family}/${day(r.time)}`, amount: byDay.get(`${r.family}/${day(r.time)}`) });
          expect(add([r.amount, `-${r.baseline}`])).toBe(exact(r.excess));
        }
      },
    },
  };

  const queries = panelQueries();

  it('has a check for every panel of every dashboard, and a panel for every check', () => {
    expect(queries.map((q) => q.panel).sort()).toEqual(Object.keys(CHECKS).sort());
  });

  for (const q of queries) {
    it(`${q.dashboard} "${q.panel}" (${q.refId}): runs as the read-only role, returns rows with its columns, and adds up to the ledger`, async () => {
      const { columns, rows } = await asGrafana(expandPanelSql(q.rawSql, await context()));
      expect(columns).toEqual(CHECKS[q.panel]!.columns);
      expect(rows.length, `${q.panel} returned no rows`).toBeGreaterThan(0);
      if (q.format === 'time_series') expect(rows.every((r) => r.time instanceof Date)).toBe(true);
      await CHECKS[q.panel]!.ledger(rows);
    });
  }

  it('provisions a PostgreSQL data source whose password comes from the environment only, and a provider for the dashboards', () => {
    const source = parse(readFileSync(new URL('../../grafana/provisioning/datasources/gpuledger.yaml', import.meta.url), 'utf8')) as {
      datasources: { uid: string; type: string; user: string; secureJsonData: { password: string } }[];
    };
    const [ds] = source.datasources;
    expect(ds).toMatchObject({ uid: 'gpuledger-postgres', type: 'grafana-postgresql-datasource' });
    expect(ds!.secureJsonData.password).toBe('${GPULEDGER_PG_PASSWORD}');
    // every panel and variable reads that data source
    for (const file of new Set(queries.map((q) => q.dashboard))) {
      const text = readFileSync(new URL(`../../grafana/dashboards/${file}`, import.meta.url), 'utf8');
      const uids = [...text.matchAll(/"uid": "([^"]+)"/g)].map((m) => m[1]).filter((u) => u !== JSON.parse(text).uid);
      expect(new Set(uids)).toEqual(new Set([ds!.uid]));
    }
    const provider = parse(readFileSync(new URL('../../grafana/provisioning/dashboards/gpuledger.yaml', import.meta.url), 'utf8')) as { providers: { type: string; options: { path: string } }[] };
    expect(provider.providers[0]).toMatchObject({ type: 'file', options: { path: '/var/lib/grafana/dashboards/gpuledger' } });
  });
});
