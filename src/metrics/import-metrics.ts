// `gpuledger metrics import`: read a metrics file (CSV, or Parquet/JSON through DuckDB, or CSV on stdin), check it
// whole, then write it in one writing session (shared-database.ts). A row replaces the stored one for the same
// account, day, metric and scope; nothing is written when any row is bad. A row goes to the account its `account`
// field names, else to --account (or the config's only account); its scope must name something that account's cost
// carries (known-scopes.ts).
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
import { checkScopesKnown, readScopeValues, type ScopeValues } from './known-scopes.ts';

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
  /** The accounts rows went to, sorted. */
  accounts: string[];
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
 * stored and never divide any cost, so they are refused with the accounts that are known. `named` says where a name
 * came from when a row's account field gave it (e.g. "m.csv line 3, field account: 'x'").
 */
export function importAccount(config: Config, requested: string | undefined, inDatabase: readonly string[], named?: string): string {
  const configured = config.accounts.map((a) => a.name);
  const known = [...new Set([...inDatabase, ...configured])].sort();
  // with one account in the database there is nothing to choose: metrics for any other would divide nothing
  const account = requested ?? (inDatabase.length === 1 ? inDatabase[0]! : configured.length === 1 ? configured[0]! : undefined);
  if (account === undefined) throw new UsageError(`there are ${known.length} accounts (${known.join(', ')}); say which with --account NAME or an account column`);
  const where = named ?? (requested !== undefined ? `--account '${account}'` : inDatabase.length === 1 ? `the database's only account '${account}'` : `the config's account '${account}'`);
  const Refusal = named === undefined ? UsageError : MetricsFileError;
  if (inDatabase.length > 0 && !inDatabase.includes(account)) {
    throw new Refusal(`${where} has no synced cost in this database, so its metrics would divide nothing; accounts in the database: ${inDatabase.join(', ')} (pass --account NAME, or sync '${account}' first)`);
  }
  if (!known.includes(account)) throw new Refusal(`${where} is neither in the database nor in the config; known accounts: ${known.join(', ') || '(none)'}`);
  return account;
}

/** What the published database knows: its accounts and the scope values of their cost; nothing before the first sync. */
async function readDatabase(dbPath: string): Promise<{ accounts: string[]; scopes: ScopeValues | undefined }> {
  try {
    return await withReader(dbPath, async (store) => ({
      accounts: (await store.all<{ account: string }>('select account from _meta_accounts order by account')).map((r) => r.account),
      scopes: await readScopeValues(store),
    }));
  } catch (e) {
    if (e instanceof DatabaseMissingError) return { accounts: [], scopes: undefined };
    throw e;
  }
}

/**
 * The account of every row: its own account field, else the import's (--account, or the config's only account). A
 * row naming another account than --account is refused: which one was meant cannot be guessed.
 */
function accountsOfRows(options: ImportOptions, file: string, unit: string, rows: readonly MetricRow[], inDatabase: readonly string[]): Map<MetricRow, string> {
  const out = new Map<MetricRow, string>();
  let fallback: string | undefined;
  const checked = new Map<string, string>();
  for (const r of rows) {
    if (r.account === '') {
      fallback ??= importAccount(options.config, options.account, inDatabase);
      out.set(r, fallback);
      continue;
    }
    const at = `${file} ${unit} ${r.line}, field account: '${r.account}'`;
    if (options.account !== undefined && r.account !== options.account) {
      throw new MetricsFileError(`${at} is not --account '${options.account}'; leave the field empty, or leave out --account`);
    }
    if (!checked.has(r.account)) checked.set(r.account, importAccount(options.config, r.account, inDatabase, at));
    out.set(r, r.account);
  }
  // a row with an empty account field and one naming the same account are one key: the second would replace the first
  const seen = new Map<string, number>();
  for (const [r, account] of out) {
    const key = `${account}\u0000${r.day}\u0000${r.metric}\u0000${r.scope}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new MetricsFileError(`${file} ${unit} ${r.line}, field account: ${r.day} ${r.metric} '${r.scope}' of account '${account}' is already given on ${unit} ${earlier}; one value per day, metric, scope and account`);
    }
    seen.set(key, r.line);
  }
  return out;
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
  const file = options.file === '-' ? '(stdin)' : options.file;
  const rows = checkMetricRows(file, raw, categories, unit);
  const database = await readDatabase(options.writer.dbPath);
  const accountOf = accountsOfRows(options, file, unit, rows, database.accounts);
  // with no row, the import's account is still checked: an empty file for a wrong account is still a mistake
  const empty = rows.length === 0 ? [importAccount(options.config, options.account, database.accounts)] : [];
  checkScopesKnown(file, unit, rows, (r) => accountOf.get(r)!, options.config, database.scopes);
  const byAccount = new Map<string, MetricRow[]>();
  for (const [row, account] of accountOf) byAccount.set(account, [...(byAccount.get(account) ?? []), row]);
  const replaced = await withWriter(options.writer, (store) =>
    store.transaction(async () => {
      let n = 0;
      for (const [account, accountRows] of byAccount) n += await writeMetricRows(store, account, options.file, accountRows);
      return n;
    }),
  );
  return {
    accounts: rows.length === 0 ? empty : [...byAccount.keys()].sort(),
    rows: rows.length,
    replaced,
    days: new Set(rows.map((r) => r.day)).size,
    metrics: [...new Set(rows.map((r) => r.metric))].sort(),
  };
}
