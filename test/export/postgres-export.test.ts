// `export postgres` against a real PostgreSQL server (test/helpers/postgres.ts) and a store filled by real syncs from
// the simulator: the mirror equals DuckDB to the micro-dollar, a re-export rewrites only the days a sync changed
// (restatements included), and the README's read-only role can read what the export writes.
import { describe, expect, it } from 'vitest';
import { exportPostgres, type PostgresExportSummary } from '../../src/export/postgres/export-postgres.ts';
import { MIRRORED_RELATIONS } from '../../src/export/postgres/relations.ts';
import { resolvePostgresTarget } from '../../src/export/postgres/target.ts';
import { parseConfig } from '../../src/config/load.ts';
import { withReader } from '../../src/store/shared-database.ts';
import { postgresExportFixture, requirePostgres } from '../helpers/postgres.ts';
import { fastSimulator, openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const PASSWORD_ENV = 'GPULEDGER_TEST_PG_PASSWORD';

describe.runIf(requirePostgres())('gpuledger export postgres', () => {
  // the first sync is the run's synced database; the later ones sync on from it against this simulator
  const pgx = suiteFixture(() => postgresExportFixture('gpuledger-pg-export-', copySyncedDatabase));
  const sim = suiteFixture(() => fastSimulator());

  const sync = async () => {
    const store = await openTestStore(pgx.tmp.db);
    try {
      const r = await syncOnce(store, smallSyncConfig(sim));
      expect(r.status).toBe('success');
    } finally {
      await store.close();
    }
  };
  const exportNow = (): Promise<PostgresExportSummary> => {
    const config = parseConfig({ export: { postgres: { url: pgx.server.url, passwordEnv: PASSWORD_ENV } } }, 'test');
    return withReader(pgx.tmp.db, (store) => exportPostgres(store, resolvePostgresTarget(config), { env: { [PASSWORD_ENV]: pgx.server.password } }));
  };
  const pgRows = async (sql: string) => (await pgx.client.query(sql)).rows as Record<string, unknown>[];
  /** Per (account, day, family) the cost in both databases, as exact decimal strings. */
  const dailySums = async () => {
    const duck = await withReader(pgx.tmp.db, (s) =>
      s.all(`select account, day::varchar as day, family, sum(amount)::varchar as amount, count(*)::varchar as n from cost_daily group by all`),
    );
    const post = await pgRows(
      `select account, to_char(day, 'YYYY-MM-DD') as day, family, sum(amount)::text as amount, count(*)::text as n from gpuledger.cost_daily group by 1, 2, 3`,
    );
    const order = (rows: Record<string, unknown>[]) => rows.map((r) => `${r.account} ${r.day} ${r.family} ${r.amount} ${r.n}`).sort();
    return { duck: order(duck), post: order(post) };
  };
  /** cost_daily's rows by day with the transaction that wrote them: a rewritten day gets a new xmin. */
  const writersByDay = async () =>
    new Map((await pgRows(`select to_char(day, 'YYYY-MM-DD') as day, string_agg(distinct xmin::text, ',') as x from gpuledger.cost_daily group by 1`)).map((r) => [r.day as string, r.x as string]));
  const changedDays = (before: Map<string, string>, after: Map<string, string>) =>
    [...new Set([...before.keys(), ...after.keys()])].filter((d) => before.get(d) !== after.get(d)).sort();


  it('mirrors cost_daily to the micro-dollar: every (account, day, family) sum and row count equals DuckDB', async () => {
    const summary = await exportNow();
    expect(summary.tablesCreated).toBe(MIRRORED_RELATIONS.length);
    const { duck, post } = await dailySums();
    expect(duck.length).toBeGreaterThan(50);
    expect(post).toEqual(duck);
  });

  it('keeps money exact in every mirrored table: numeric with DuckDB\'s scale, and each money column sums to the same digits', async () => {
    const expected = await withReader(pgx.tmp.db, async (s) => {
      const out: { relation: (typeof MIRRORED_RELATIONS)[number]; money: { column: string; scale: string }[]; sums: Record<string, unknown> | undefined }[] = [];
      for (const relation of MIRRORED_RELATIONS) {
        const columns = await s.all<{ column_name: string; column_type: string }>(`describe select * from ${relation.view}`);
        const money = columns.flatMap((c) => {
          const m = /^DECIMAL\((\d+),(\d+)\)$/.exec(c.column_type);
          return m ? [{ column: c.column_name, scale: m[2]! }] : [];
        });
        const sums = await s.one(`select ${['count(*)::varchar as n', ...money.map((c, i) => `sum(${c.column})::varchar as s${i}`)].join(', ')} from ${relation.view}`);
        out.push({ relation, money, sums });
      }
      return out;
    });
    for (const { relation, money, sums } of expected) {
      for (const c of money) {
        const [pgColumn] = await pgRows(
          `select numeric_scale::text as scale from information_schema.columns where table_schema = 'gpuledger' and table_name = '${relation.table}' and column_name = '${c.column}'`,
        );
        expect(pgColumn, `${relation.table}.${c.column}`).toEqual({ scale: c.scale });
      }
      const [post] = await pgRows(`select ${['count(*)::text as n', ...money.map((c, i) => `sum(${c.column})::text as s${i}`)].join(', ')} from gpuledger.${relation.table}`);
      expect(post, relation.table).toEqual(sums);
    }
    expect(expected.find((e) => e.relation.table === 'cost_daily')?.sums?.n).not.toBe('0');
  });

  it('carries names, attribution and nulls through unchanged: cost_daily row for row', async () => {
    const columns = 'account, family, component, resource_id, resource_name, gpu_type_id, gpu_type_name, data_center_id, template_id, template_name, endpoint_id, endpoint_name, attribution';
    const text = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();
    // the subject key too: a UHUGEINT in DuckDB, numeric(39,0) here, every digit (stage.ts writes each distinct one once)
    const duck = await withReader(pgx.tmp.db, (s) => s.all(`select ${columns}, amount::varchar as amount, day::varchar as day, subject_id::varchar as subject_id from cost_daily`));
    const post = await pgRows(`select ${columns}, amount::text as amount, to_char(day, 'YYYY-MM-DD') as day, subject_id::text as subject_id from gpuledger.cost_daily`);
    expect(duck.some((r) => String(r.subject_id).length > 30)).toBe(true);
    expect(text(post)).toEqual(text(duck));
    // an empty string and a null stay apart through CSV (a null name is a resource without inventory)
    expect(post.some((r) => r.resource_name === null)).toBe(duck.some((r) => r.resource_name === null));
  });

  it('sends a table in CSV parts, copied one after another as DuckDB writes them: the same rows as sent whole', async () => {
    const config = parseConfig({ export: { postgres: { url: pgx.server.url, passwordEnv: PASSWORD_ENV } } }, 'test');
    const target = { ...resolvePostgresTarget(config), schema: 'gpuledger_parts' };
    const partRows = 25;
    await withReader(pgx.tmp.db, (store) => exportPostgres(store, target, { env: { [PASSWORD_ENV]: pgx.server.password }, partRows }));
    const digest = async (schema: string, table: string) =>
      (await pgRows(`select count(*) || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as d from ${schema}.${table} as t`))[0]!.d;
    const [rows] = await pgRows(`select count(*)::int as n from gpuledger_parts.cost_daily`);
    expect(rows!.n).toBeGreaterThan(partRows * 4);
    for (const r of MIRRORED_RELATIONS.filter((r) => !r.exportedAt)) {
      expect({ table: r.table, digest: await digest('gpuledger_parts', r.table) }).toEqual({ table: r.table, digest: await digest('gpuledger', r.table) });
    }
    await pgx.client.query('drop schema gpuledger_parts cascade');
  });

  it('re-exporting unchanged data rewrites no day and replaces only the freshness table', async () => {
    const before = await writersByDay();
    const summary = await exportNow();
    expect(summary.slicesRewritten).toBe(0);
    expect(Object.keys(summary.changes)).toEqual(['freshness']);
    expect(changedDays(before, await writersByDay())).toEqual([]);
  });

  it('after a sync that changed one day, rewrites only that day and matches DuckDB again', async () => {
    const before = await writersByDay();
    sim.setNow('2026-11-20T13:50:00Z');
    await sync();
    const summary = await exportNow();
    expect(changedDays(before, await writersByDay())).toEqual(['2026-11-20']);
    expect(summary.changes.cost_daily?.days).toEqual(['sim/2026-11-20']);
    // every table of cost by day rewrites that day alone; rpt_balance_daily's days before the first balance
    // observation are an estimate walked back from it, refined while that observation's day is still billing
    const rewritten = Object.entries(summary.changes).flatMap(([table, c]) => (c.days === 'whole' ? [] : c.days.map((d) => ({ table, day: d.slice(4) }))));
    expect(rewritten.filter((r) => r.table !== 'rpt_balance_daily' && r.day !== '2026-11-20')).toEqual([]);
    expect(rewritten.filter((r) => r.table === 'cost_daily' || r.table === 'rpt_spend_daily').map((r) => r.day)).toEqual(['2026-11-20', '2026-11-20']);
    const balanceDays = rewritten.filter((r) => r.table === 'rpt_balance_daily' && r.day !== '2026-11-20').map((r) => r.day);
    const bases = await pgRows(`select distinct balance_basis from gpuledger.rpt_balance_daily where to_char(day, 'YYYY-MM-DD') = any('{${balanceDays.join(',')}}')`);
    expect(bases.map((b) => b.balance_basis).filter((b) => b !== 'reconstructed')).toEqual([]);
    const [run] = await pgRows(`select changes->'cost_daily'->'days' as days, slices_rewritten from gpuledger._export_runs order by export_id desc limit 1`);
    expect(run).toEqual({ days: ['sim/2026-11-20'], slices_rewritten: summary.slicesRewritten });
    const { duck, post } = await dailySums();
    expect(post).toEqual(duck);
  });

  it('rewrites a restated closed day: the preliminary figure read just after midnight is replaced by the final one', async () => {
    sim.setNow('2026-11-21T00:30:00Z');
    await sync();
    await exportNow();
    const preliminary = await pgRows(`select sum(amount)::text as amount from gpuledger.cost_daily where day = '2026-11-20'`);
    const before = await writersByDay();
    // an hour later the restated pods' last hours of the 20th are final (docs/simulator.md "Restatement")
    sim.setNow('2026-11-21T01:45:00Z');
    await sync();
    const restated = await withReader(pgx.tmp.db, (s) =>
      s.one<{ n: string }>(`select count(*)::varchar as n from _meta_restatements where kind = 'restatement' and bucket_start >= '2026-11-20' and bucket_start < '2026-11-21'`),
    );
    expect(Number(restated!.n)).toBeGreaterThan(0);
    const summary = await exportNow();
    expect(changedDays(before, await writersByDay())).toEqual(['2026-11-20', '2026-11-21']);
    expect(summary.changes.cost_daily?.days).toEqual(expect.arrayContaining(['sim/2026-11-20', 'sim/2026-11-21']));
    const final = await pgRows(`select sum(amount)::text as amount from gpuledger.cost_daily where day = '2026-11-20'`);
    expect(final).not.toEqual(preliminary);
    const { duck, post } = await dailySums();
    expect(post).toEqual(duck);
  });

  it('keeps a freshness table: complete-through per account and source, and the time of the export that wrote it', async () => {
    const rows = await pgRows(`select account, source, bucket_size, complete_through, exported_at from gpuledger.freshness`);
    const [last] = await pgRows(`select started_at from gpuledger._export_runs order by export_id desc limit 1`);
    expect(rows.map((r) => r.source)).toEqual(expect.arrayContaining(['pods', 'serverless', 'aggregate']));
    expect(rows.every((r) => r.account === 'sim' && (r.exported_at as Date).getTime() === (last!.started_at as Date).getTime())).toBe(true);
    expect(rows.filter((r) => r.source === 'pods').every((r) => r.complete_through instanceof Date)).toBe(true);
  });

  it('rebuilds a table whose definition changed, whole, and leaves the others alone', async () => {
    await pgx.client.query(`update gpuledger._export_tables set definition = 'an older gpuledger' where table_name = 'rpt_waste'`);
    const summary = await exportNow();
    expect(summary.tablesCreated).toBe(1);
    expect(summary.changes.rpt_waste).toMatchObject({ created: true, days: 'whole' });
    expect(summary.slicesRewritten).toBe(0);
  });

  it('indexes the usual filters', async () => {
    const indexes = (await pgRows(`select indexdef from pg_indexes where schemaname = 'gpuledger' and tablename = 'cost_daily'`)).map((r) => String(r.indexdef).replace(/^.* USING btree /, ''));
    expect(indexes).toEqual(expect.arrayContaining(['(account, day)', '(day)', '(family, day)', '(template_id, day)', '(endpoint_id, day)']));
    const allocated = (await pgRows(`select indexdef from pg_indexes where schemaname = 'gpuledger' and tablename = 'cost_allocated'`)).map((r) => String(r.indexdef));
    expect(allocated.some((d) => d.endsWith('(category, value, day)'))).toBe(true);
  });

  it('lets the README\'s read-only role read every table, also one rebuilt later, and write none', async () => {
    // the recipe of README.md "PostgreSQL for BI tools", as the export user runs it
    await pgx.client.query(`create role bi_reader login password 'reader-secret-1'`);
    await pgx.client.query(`grant usage on schema gpuledger to bi_reader`);
    await pgx.client.query(`grant select on all tables in schema gpuledger to bi_reader`);
    await pgx.client.query(`alter default privileges in schema gpuledger grant select on tables to bi_reader`);
    await pgx.client.query(`update gpuledger._export_tables set definition = 'an older gpuledger' where table_name = 'cost_daily'`);
    await exportNow();
    const pgModule = (await import('pg')).default;
    const reader = new pgModule.Client({ host: pgx.server.host, port: pgx.server.port, user: 'bi_reader', password: 'reader-secret-1', database: pgx.server.database });
    await reader.connect();
    try {
      const [row] = (await reader.query(`select count(*)::int as n from gpuledger.cost_daily`)).rows;
      expect(row.n).toBeGreaterThan(0);
      await expect(reader.query(`delete from gpuledger.cost_daily`)).rejects.toThrow(/permission denied/);
      await expect(reader.query(`create table gpuledger.x (a int)`)).rejects.toThrow(/permission denied/);
    } finally {
      await reader.end();
    }
  });
});
