// `export postgres` touches only what it created (issue 26 §2), run as a user runs it (the real CLI) against a real
// PostgreSQL server: a schema that holds a user's table, view or index under a name the export uses is refused with
// exit 2 and one line naming the object, and nothing in PostgreSQL changes – the user's rows byte for byte, and no
// table of gpuledger's appears. A schema gpuledger already exported into is exported into again as before.
import { describe, expect, it } from 'vitest';
import { postgresExportFixture, requirePostgres } from '../helpers/postgres.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { gpuledger } from '../helpers/cli.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

describe.runIf(requirePostgres())('export postgres into a schema that holds a user\'s objects', () => {
  const pgx = suiteFixture(() => postgresExportFixture('gpuledger-pg-foreign-', copySyncedDatabase), 180_000);

  const exportCli = (schema?: string) =>
    gpuledger(['--db', pgx.tmp.db, 'export', 'postgres', '--url', pgx.server.url, ...(schema ? ['--schema', schema] : [])], { PGPASSWORD: pgx.server.password });
  /** Everything in a schema: each relation with its kind, and each table's or view's rows as text in a fixed order. */
  const everything = async (schema: string) => {
    const relations = (await pgx.client.query<{ relname: string; relkind: string }>(`select relname, relkind from pg_class where relnamespace = $1::regnamespace order by 1`, [schema])).rows;
    const rows: Record<string, string[]> = {};
    for (const r of relations.filter((x) => x.relkind === 'r' || x.relkind === 'v')) {
      rows[r.relname] = (await pgx.client.query<{ t: string }>(`select t::text as t from "${schema}"."${r.relname}" as t order by 1`)).rows.map((x) => x.t);
    }
    return { relations: relations.map((r) => `${r.relname}:${r.relkind}`), rows };
  };


  it('refuses a schema holding the user\'s cost_daily, rpt_runway and freshness: exit 2, one line, the user\'s rows untouched, no table of ours', async () => {
    await pgx.client.query(`create schema us`);
    await pgx.client.query(`create table us.cost_daily (day date, team text, amount numeric(12,2))`);
    await pgx.client.query(`insert into us.cost_daily values ('2026-11-01', 'ml', 1234.56), ('2026-11-02', 'infra', 0.01)`);
    await pgx.client.query(`create table us.rpt_runway (account text, days integer)`);
    await pgx.client.query(`insert into us.rpt_runway values ('main', 42)`);
    await pgx.client.query(`create view us.freshness as select team, max(day) as latest from us.cost_daily group by team`);
    const before = await everything('us');
    expect(before.rows.cost_daily).toHaveLength(2);

    const r = await exportCli('us');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gpuledger: --schema us already holds table us.cost_daily that gpuledger did not create; choose another --schema (e.g. gpuledger); nothing was exported\n');
    expect(await everything('us')).toEqual(before);
  });

  it('refuses a user\'s view, an index and a table shaped unlike gpuledger\'s bookkeeping under names the export uses', async () => {
    await pgx.client.query(`create schema views_only`);
    await pgx.client.query(`create view views_only.freshness as select 1 as fresh`);
    await pgx.client.query(`create schema indexed`);
    await pgx.client.query(`create table indexed.orders (day date)`);
    await pgx.client.query(`create index cost_daily_day_idx on indexed.orders (day)`);
    await pgx.client.query(`create schema bookkept`);
    await pgx.client.query(`create table bookkept._export_runs (run text)`);
    await pgx.client.query(`insert into bookkept._export_runs values ('the user''s own run')`);
    const cases = [
      ['views_only', 'view views_only.freshness'],
      ['indexed', 'index indexed.cost_daily_day_idx'],
      ['bookkept', 'table bookkept._export_runs'],
    ] as const;
    for (const [schema, object] of cases) {
      const before = await everything(schema);
      const r = await exportCli(schema);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`gpuledger: --schema ${schema} already holds ${object} that gpuledger did not create; choose another --schema (e.g. gpuledger); nothing was exported\n`);
      expect(await everything(schema)).toEqual(before);
    }
  });

  it('refuses the default schema public when it holds a user\'s table of a mirrored name', async () => {
    await pgx.client.query(`create table public.rpt_spend_daily (note text)`);
    await pgx.client.query(`insert into public.rpt_spend_daily values ('mine')`);
    const before = await everything('public');
    const r = await exportCli('public');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('gpuledger: --schema public already holds table public.rpt_spend_daily that gpuledger did not create; choose another --schema (e.g. gpuledger); nothing was exported\n');
    expect(await everything('public')).toEqual(before);
  });

  it('exports again into a schema it owns, and leaves a user\'s table of another name there alone', async () => {
    const first = await exportCli();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/\(schema gpuledger\): export 1, 25 table\(s\) created/);
    await pgx.client.query(`create table gpuledger.notes (note text)`);
    await pgx.client.query(`insert into gpuledger.notes values ('kept')`);
    const second = await exportCli();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/\(schema gpuledger\): export 2, 0 table\(s\) created/);
    expect((await pgx.client.query(`select note from gpuledger.notes`)).rows).toEqual([{ note: 'kept' }]);
    expect((await pgx.client.query(`select count(*)::int as n from gpuledger._export_runs`)).rows).toEqual([{ n: 2 }]);
  });
});
