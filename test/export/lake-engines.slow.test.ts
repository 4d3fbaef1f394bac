// The lake read by engines others run (issue 42 §1): a synced simulator account exported with the real CLI, then
// read back by Ray Data (local mode: the code a cluster runs), polars and dask from test/engines/*.py. Per engine,
// every family's total and every day's total equal `cost_daily` in DuckDB to the micro-dollar, the partition columns
// come typed as the README's recipes say (strings, not numbers or categories), amount as DECIMAL(18, 6), day as a
// date; every Parquet file holds amount as one type, INT64 DECIMAL(18, 6). Then a closed day is restated (the
// simulator's preliminary last hour of 2026-11-20 becomes final, docs/simulator.md "Restatement"), synced and
// exported again: exactly the files whose partitions hold that day's changed rows are replaced, and every engine sees
// the new figure with the day's rows counted once. Ray starts once for both lakes (its start is most of its time).
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { gpuledger } from '../helpers/cli.ts';
import { requireEngines, runEngineScript } from '../helpers/engines.ts';
import { fastSimulator, openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const RESTATED_DAY = '2026-11-20';
const ENGINES = { ray: 'read_lake_ray.py', polars: 'read_lake_polars.py', dask: 'read_lake_dask.py' } as const;
type Engine = keyof typeof ENGINES;

/** How each engine names the types README.md's recipes promise: partition values strings, amount DECIMAL(18, 6), day a date. */
const TYPES: Record<Engine, Record<'account' | 'family' | 'month' | 'amount' | 'day', string>> = {
  ray: { account: 'string', family: 'string', month: 'string', amount: 'decimal128(18, 6)', day: 'date32[day]' },
  polars: { account: 'String', family: 'String', month: 'String', amount: 'Decimal(precision=18, scale=6)', day: 'Date' },
  dask: { account: 'string', family: 'string', month: 'string', amount: 'decimal128(18, 6)[pyarrow]', day: 'date32[day][pyarrow]' },
};

/** What test/engines/lake_summary.py prints for one lake. */
interface Summary {
  engine: Engine;
  lake: string;
  schema: Record<string, string>;
  rows: number;
  families: Record<string, string>;
  days: Record<string, string>;
  day_rows: Record<string, number>;
}

type Totals = Pick<Summary, 'rows' | 'families' | 'days' | 'day_rows'>;

async function duck<T>(db: string, sql: string): Promise<T[]> {
  const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    await connection.run("set TimeZone = 'UTC'");
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** cost_daily's totals in DuckDB, as the engines report theirs: exact decimal strings. */
async function ledgerTotals(db: string): Promise<Totals> {
  const families = await duck<{ family: string; amount: string }>(db, `select family, sum(amount)::varchar as amount from cost_daily group by 1`);
  const days = await duck<{ day: string; amount: string; n: string }>(db, `select day::varchar as day, sum(amount)::varchar as amount, count(*)::varchar as n from cost_daily group by 1`);
  const sorted = <V>(entries: [string, V][]) => Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
  return {
    rows: days.reduce((n, d) => n + Number(d.n), 0),
    families: sorted(families.map((f) => [f.family, f.amount])),
    days: sorted(days.map((d) => [d.day, d.amount])),
    day_rows: sorted(days.map((d) => [d.day, Number(d.n)])),
  };
}

/** Each lake partition's content, digested independently of the export's fingerprint, by its file's path. */
async function partitionDigests(db: string): Promise<Map<string, string>> {
  const month = { cost: "strftime(date '1970-01-01' + (epoch_us(bucket_start) // 86400000000)::integer, '%Y-%m')", cost_daily: "strftime(day, '%Y-%m')" };
  const digests = new Map<string, string>();
  for (const table of ['cost', 'cost_daily'] as const) {
    const rows = await duck<{ account: string; family: string; month: string; digest: string }>(
      db,
      `select account, family, ${month[table]} as month, md5(string_agg(to_json(t)::varchar, '|' order by to_json(t)::varchar)) as digest from ${table} as t group by all`,
    );
    for (const r of rows) digests.set(`${table}/account=${r.account}/family=${r.family}/month=${r.month}/data.parquet`, r.digest);
  }
  return digests;
}

/** Every Parquet file of the lake with its identity: a replaced file is a new inode (renamed into place). */
function lakeFiles(lake: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of readdirSync(lake, { recursive: true, encoding: 'utf8' })) {
    if (!path.endsWith('.parquet')) continue;
    const s = statSync(join(lake, path));
    files.set(path, `${s.ino}:${s.mtimeMs}`);
  }
  return files;
}

const parseSummaries = (stdout: string): Summary[] =>
  stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Summary);

describe.runIf(requireEngines())('the lake read by Ray Data, polars and dask', () => {
  const tmp = suiteFixture(async () => {
    const t = tempDir('gpuledger-lake-engines-');
    await copySyncedDatabase(t.db);
    return { ...t, stop: t.cleanup };
  });
  const sim = suiteFixture(() => fastSimulator());
  const lake = () => join(tmp.dir, 'lake');
  const lakeBefore = () => join(tmp.dir, 'lake-before');
  const exportLake = async () => {
    const r = await gpuledger(['--db', tmp.db, 'export', 'lake', '--out', lake()]);
    expect(r.code, r.stderr).toBe(0);
    return r;
  };
  const sync = async (window: { since?: Date; until?: Date } = {}) => {
    const store = await openTestStore(tmp.db);
    try {
      expect((await syncOnce(store, smallSyncConfig(sim), window)).status).toBe('success');
    } finally {
      await store.close();
    }
  };
  const state: { before?: Totals; after?: Totals; summaries?: Summary[]; seconds?: Record<string, number> } = {};

  it(`exports, then after ${RESTATED_DAY} is restated re-exports exactly the partitions whose rows changed`, async () => {
    // just after midnight: the last hour of the 20th is still preliminary for the restated pods
    sim.setNow('2026-11-21T00:30:00Z');
    await sync();
    await exportLake();
    cpSync(lake(), lakeBefore(), { recursive: true });
    state.before = await ledgerTotals(tmp.db);
    const digestsBefore = await partitionDigests(tmp.db);
    const filesBefore = lakeFiles(lake());

    // an hour later it is final: re-read that day alone, so the restatement is the only change
    sim.setNow('2026-11-21T01:45:00Z');
    await sync({ since: new Date(`${RESTATED_DAY}T00:00:00Z`), until: new Date('2026-11-21T00:00:00Z') });
    state.after = await ledgerTotals(tmp.db);
    const movedDays = Object.keys(state.after.days).filter((d) => state.after!.days[d] !== state.before!.days[d]);
    expect(movedDays, 'the restatement moved that day and no other').toEqual([RESTATED_DAY]);
    expect(state.after.day_rows).toEqual(state.before.day_rows);

    const r = await exportLake();
    const digestsAfter = await partitionDigests(tmp.db);
    const changed = [...digestsAfter.keys()].filter((k) => digestsBefore.get(k) !== digestsAfter.get(k)).sort();
    const filesAfter = lakeFiles(lake());
    const replaced = [...filesAfter.keys()].filter((k) => filesBefore.get(k) !== filesAfter.get(k)).sort();
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((k) => k.includes('/month=2026-11/'))).toBe(true);
    expect(replaced).toEqual(changed);
    expect([...filesAfter.keys()].sort()).toEqual([...filesBefore.keys()].sort());
    expect(r.stderr).toMatch(new RegExp(`rewrote ${changed.length}, removed 0, unchanged ${filesAfter.size - changed.length}`));
  }, 180_000);

  it('holds amount as one type in every Parquet file of both tables: INT64 DECIMAL(18, 6)', async () => {
    const types = await duck<{ table_name: string; physical: string; logical: string; files: string }>(
      tmp.db,
      `select split_part(file_name, '/', -5) as table_name, type as physical, logical_type::varchar as logical, count(*)::varchar as files
       from parquet_schema('${lake()}/*/*/*/*/*.parquet') where name = 'amount' group by all order by all`,
    );
    const fileCount = lakeFiles(lake()).size;
    expect(types.map(({ files, ...t }) => t)).toEqual([
      { table_name: 'cost', physical: 'INT64', logical: 'DecimalType(scale=6, precision=18)' },
      { table_name: 'cost_daily', physical: 'INT64', logical: 'DecimalType(scale=6, precision=18)' },
    ]);
    expect(types.reduce((n, t) => n + Number(t.files), 0)).toBe(fileCount);
  });

  it('reads both lakes with Ray Data (one ray.init), polars and dask', async () => {
    state.summaries = [];
    state.seconds = {};
    for (const [engine, script] of Object.entries(ENGINES)) {
      const run = await runEngineScript(script, [lakeBefore(), lake()], tmp.dir);
      state.seconds[engine] = run.seconds;
      const summaries = parseSummaries(run.stdout);
      expect(summaries.map((s) => [s.engine, s.lake]), run.stderr.slice(-2000)).toEqual([[engine, lakeBefore()], [engine, lake()]]);
      state.summaries.push(...summaries);
    }
    process.stderr.write(`lake engines, wall seconds: ${JSON.stringify(state.seconds)}\n`);
  }, 600_000);

  for (const engine of Object.keys(ENGINES) as Engine[]) {
    it(`${engine}: every family's and every day's total equals cost_daily to the micro-dollar, before and after the restatement`, () => {
      const [before, after] = ['lake-before', 'lake'].map((name) => state.summaries!.find((s) => s.engine === engine && s.lake === join(tmp.dir, name))!);
      const totals = ({ rows, families, days, day_rows }: Summary): Totals => ({ rows, families, days, day_rows });
      expect(totals(before!)).toEqual(state.before);
      expect(totals(after!)).toEqual(state.after);
      // the new figure, with the day's rows counted once (no file of the old figure left beside the new)
      expect(after!.days[RESTATED_DAY]).not.toBe(before!.days[RESTATED_DAY]);
      expect(after!.day_rows[RESTATED_DAY]).toBe(state.after!.day_rows[RESTATED_DAY]);
    });

    it(`${engine}: types the partition columns as strings, amount as DECIMAL(18, 6) and day as a date, as the README's recipes say`, () => {
      for (const s of state.summaries!.filter((x) => x.engine === engine)) {
        const { account, family, month, amount, day } = s.schema;
        expect({ account, family, month, amount, day }).toEqual(TYPES[engine]);
      }
    });
  }
});
