// `gpuledger metrics import`: read a metrics file (CSV, or Parquet/JSON through DuckDB, or CSV on stdin), check it
// whole, then write it in one writing session (shared-database.ts). A row replaces the stored one for the same
// account, day, metric and scope; nothing is written when any row is bad.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Config } from '../config/schema.ts';
import { createScratchFolder } from '../outputs/scratch-folder.ts';
import type { Store } from '../store/database.ts';
import { DatabaseMissingError, withReader, withWriter, type WriterOptions } from '../store/shared-database.ts';
import { UsageError } from '../util/errors.ts';
import { checkMetricRows, MetricsFileError, type MetricRow, type RawMetricRow } from './metric-rows.ts';
import { readMetricsCsv } from './read-csv.ts';
import { readMetricsWithDuckdb } from './read-duckdb-file.ts';

export interface ImportOptions {
  /** A path, or '-' for CSV on stdin. */
  file: string;
  account?: string;
  config: Config;
  writer: WriterOptions;
  /** stdin's text when file is '-' (read by the caller). */
  stdin?: () => Promise<string>;
}

export interface ImportSummary {
  account: string;
  rows: number;
  /** Rows that replaced a stored value. */
  replaced: number;
  days: number;
  metrics: string[];
}

/**
 * The account rows belong to: --account, else the database's only account (the demo's 'demo' under a default config),
 * else the config's only account. It must be an account the database holds
 * (or, in a database that holds none yet, one the config names): metrics of an account without synced cost would be
 * stored and never divide any cost, so they are refused with the accounts that are known.
 */
export function importAccount(config: Config, requested: string | undefined, inDatabase: readonly string[]): string {
  const configured = config.accounts.map((a) => a.name);
  const known = [...new Set([...inDatabase, ...configured])].sort();
  // with one account in the database there is nothing to choose: metrics for any other would divide nothing
  const account = requested ?? (inDatabase.length === 1 ? inDatabase[0]! : configured.length === 1 ? configured[0]! : undefined);
  if (account === undefined) throw new UsageError(`there are ${known.length} accounts (${known.join(', ')}); say which with --account NAME`);
  const where = requested !== undefined ? `--account '${account}'` : inDatabase.length === 1 ? `the database's only account '${account}'` : `the config's account '${account}'`;
  if (inDatabase.length > 0 && !inDatabase.includes(account)) {
    throw new UsageError(`${where} has no synced cost in this database, so its metrics would divide nothing; accounts in the database: ${inDatabase.join(', ')} (pass --account NAME, or sync '${account}' first)`);
  }
  if (!known.includes(account)) throw new UsageError(`${where} is neither in the database nor in the config; known accounts: ${known.join(', ') || '(none)'}`);
  return account;
}

/** The accounts the published database holds; none before the first sync. */
async function accountsInDatabase(dbPath: string): Promise<string[]> {
  try {
    return await withReader(dbPath, async (store) => (await store.all<{ account: string }>('select account from _meta_accounts order by account')).map((r) => r.account));
  } catch (e) {
    if (e instanceof DatabaseMissingError) return [];
    throw e;
  }
}

async function readRows(options: ImportOptions): Promise<{ rows: RawMetricRow[]; unit: string }> {
  const { file } = options;
  if (file === '-') return { rows: readMetricsCsv(await (options.stdin ?? readStdin)(), '(stdin)'), unit: 'line' };
  const ext = extname(file).toLowerCase();
  if (ext === '.parquet') return { rows: await readMetricsWithDuckdb(file, 'parquet', file), unit: 'record' };
  if (ext === '.json' || ext === '.ndjson' || ext === '.jsonl') return { rows: await readMetricsWithDuckdb(file, 'json', file), unit: 'record' };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MetricsFileError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { cause: e });
  }
  return { rows: readMetricsCsv(text, file), unit: 'line' };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Write checked rows: staged as NDJSON and read by DuckDB in one statement (no per-row INSERT), values as text → DECIMAL. */
export async function writeMetricRows(store: Store, account: string, source: string, rows: readonly MetricRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const scratch = createScratchFolder('gpuledger-metrics-');
  try {
    const staged = join(scratch.path, 'rows.ndjson');
    writeFileSync(staged, rows.map((r) => JSON.stringify({ day: r.day, metric: r.metric, scope: r.scope, value: r.value, line: r.line })).join('\n'));
    const before = await store.one<{ n: string }>(
      `select count(*)::varchar as n from raw_metrics as m
       semi join read_json($staged, columns = {day: 'DATE', metric: 'VARCHAR', scope: 'VARCHAR', value: 'VARCHAR', line: 'INTEGER'}) as s
         on m.account = $account and m.day = s.day and m.metric = s.metric and m.scope = s.scope`,
      { staged, account },
    );
    await store.run(
      `insert or replace into raw_metrics
       select $account, day, metric, scope, cast(value as decimal(38,6)), $source, line, $load, now()
       from read_json($staged, columns = {day: 'DATE', metric: 'VARCHAR', scope: 'VARCHAR', value: 'VARCHAR', line: 'INTEGER'})`,
      { staged, account, source, load: randomUUID() },
    );
    return Number(before?.n ?? 0);
  } finally {
    scratch.remove();
  }
}

export async function importMetrics(options: ImportOptions): Promise<ImportSummary> {
  const { rows: raw, unit } = await readRows(options);
  const categories = Object.keys(options.config.allocation.categories);
  const rows = checkMetricRows(options.file === '-' ? '(stdin)' : options.file, raw, categories, unit);
  const account = importAccount(options.config, options.account, await accountsInDatabase(options.writer.dbPath));
  const replaced = await withWriter(options.writer, (store) => store.transaction(() => writeMetricRows(store, account, options.file, rows)));
  return {
    account,
    rows: rows.length,
    replaced,
    days: new Set(rows.map((r) => r.day)).size,
    metrics: [...new Set(rows.map((r) => r.metric))].sort(),
  };
}
