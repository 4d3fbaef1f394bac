// Loading one billing page: DuckDB's read_json reads the spooled records array straight into a temp staging table
// (JSON numbers into DECIMAL exactly from their text; no JavaScript object per record), the checks of
// billing-api-v2.md §2 run in SQL over it, then one transaction compares them with what the store held for that window (growth of the
// open bucket, restatements of closed ones), replaces the window, writes the load record and moves the watermark.
// Kept in one file (~265 lines) because the staging checks, the comparison and the replace share one transaction and
// its temp tables; a split would pass them between modules for no reader's gain.
// A failure anywhere rolls the transaction back: the window keeps its previous contents and the watermark does not
// move, so the next sync reads it again.
import { randomUUID } from 'node:crypto';
import { ApiResponseError, type BillingPage } from '../api/index.ts';
import type { Store } from '../store/database.ts';
import { StoreError } from '../util/errors.ts';
import { decimalStringToMicros, microsToDecimalString } from '../util/decimal.ts';
import { ceilToBucket, formatRfc3339, type BucketSize } from '../util/buckets.ts';
import type { BillingSourceDef } from '../model/index.ts';
import { castFailureSql, checkPageSql, EXACT_BELOW, recordFields, stagePageSql } from './billing-sql.ts';
import { moveBillingWatermark } from './watermarks.ts';

export interface LoadContext {
  store: Store;
  runId: string;
  account: string;
  def: BillingSourceDef;
  bucketSize: BucketSize;
  /** The platform's time when the page was read: loaded_through never runs ahead of it. */
  serverNow: Date;
  /** Buckets ending at or before this are final (older than the lookback). */
  completeThrough: Date;
  /** Whether this chunk is the last of its range (the watermark's last_success_at moves only then). */
  lastOfRange: boolean;
}

export interface LoadResult {
  loadId: string;
  records: number;
  totalMicros: bigint;
  /** Buckets whose amount moved since the previous read: [growth, restatement]. */
  growth: number;
  restated: number;
  /** Derivable metadata that disagreed with the records (said, not fatal). */
  warnings: string[];
}

function stageName(def: BillingSourceDef): string {
  return `stage_${def.table}`;
}

const staged = new WeakSet<Store>();

async function ensureStageTables(store: Store, defs: readonly BillingSourceDef[]): Promise<void> {
  if (staged.has(store)) return;
  // one read of the catalog for every source (information_schema per table cost a sixth of a small sync's loads)
  const rows = await store.all<{ table_name: string; column_name: string }>(
    `select table_name, column_name from duckdb_columns()
     where database_name = current_database() and schema_name = 'main' and starts_with(table_name, 'raw_billing_')
     order by table_name, column_index`,
  );
  for (const def of defs) {
    checkTableMatchesDeclaration(def, rows.filter((r) => r.table_name === def.table).map((r) => r.column_name));
  }
  staged.add(store);
}

/** The raw table and the source's declaration must list the same columns in the same order: a column the loader
 * does not know would be filled by position with the wrong field's money. */
function checkTableMatchesDeclaration(def: BillingSourceDef, actual: readonly string[]): void {
  const missing = def.columns.filter((c) => !actual.includes(c));
  const undeclared = actual.filter((c) => !def.columns.includes(c));
  if (missing.length > 0 || undeclared.length > 0 || actual.join() !== def.columns.join()) {
    throw new StoreError(
      `${def.table} does not match the declaration of the ${def.source} billing source` +
        (missing.length ? `; declared but not in the table: ${missing.join(', ')}` : '') +
        (undeclared.length ? `; in the table but not declared: ${undeclared.join(', ')}` : '') +
        (!missing.length && !undeclared.length ? `; column order differs (table: ${actual.join(', ')})` : '') +
        ' – add a migration or fix src/model/billing-sources/',
    );
  }
}

/** A page as the network half leaves it: its metadata in memory, its records array in a spool file. */
export type SpooledPage = Omit<BillingPage, 'recordsJson'> & { file: string };

type Checks = Record<string, string | null> & { n: string; unique_ids?: string };

/** A record index of the spooled array as messages name it: `records[17].gpuAmount`. */
const at = (i: string | null | undefined, field: string) => `records[${i}].${field}`;

const trimZeros = (d: string) => d.replace(/\.?0+$/, '');

/** The UTC calendar day of a moment, YYYY-MM-DD (an ISO string's date is the UTC day: no date library needed). */
const utcDay = (t: Date) => t.toISOString().slice(0, 10);

/** Read the spooled records into the staging table; a value no cast takes is named, field and record, here. */
async function stagePage(ctx: LoadContext, page: SpooledPage, loadId: string, extractedAt: Date): Promise<void> {
  const { store, def } = ctx;
  const params = { account: ctx.account, size: ctx.bucketSize, load: loadId, at: extractedAt.toISOString() };
  try {
    await store.run(stagePageSql(def, stageName(def), page.file, page.bytes), params);
  } catch (e) {
    // only on failure: re-read the amounts as JSON to say which one DuckDB could not take
    const first = await store.one<Record<string, string | null>>(castFailureSql(def, page.file, page.bytes)).catch(() => undefined);
    const bad = def.amountFields.find((f) => first?.[f] != null);
    const detail = bad ? `${at(first![bad], bad)}: expected a number with at most 12 digits before the point` : (e as Error).message.split('\n')[0];
    throw new ApiResponseError(`${page.what}: ${detail}`, { cause: e });
  }
}

/** The strict half of billing-api-v2.md §2 in SQL: every declared field present, ids non-empty, times inside the
 * answered window, and the stated count and totals equal to what arrived. */
async function checkPage(ctx: LoadContext, page: SpooledPage): Promise<{ records: number; sums: Record<string, bigint>; warnings: string[] }> {
  const { store, def } = ctx;
  const c = (await store.one<Checks>(checkPageSql(def, stageName(def)), { ws: page.query.startTime.toISOString(), we: page.query.endTime.toISOString() }))!;
  const fail = (detail: string) => new ApiResponseError(`${page.what}: ${detail}`);
  for (const f of recordFields(def)) {
    const i = c[`missing:${f}`];
    if (i == null) continue;
    const time = f === 'startTime' || f === 'endTime';
    throw fail(`${at(i, f)}: ${time ? 'missing or not an RFC 3339 date-time' : 'missing, and the declaration of this source requires it'}`);
  }
  for (const f of def.amountFields) {
    const i = c[`inexact:${f}`];
    if (i != null) throw fail(`${at(i, f)}: an amount of $${EXACT_BELOW.toExponential()} or more, which cannot be read exactly (read_json reads numbers as doubles)`);
  }
  if (def.idField && c[`empty:${def.idField}`] != null) throw fail(`${at(c[`empty:${def.idField}`], def.idField)}: an empty id`);
  if (c.outside != null) {
    throw fail(`records[${c.outside}] lies outside the answered window [${formatRfc3339(page.query.startTime)}, ${formatRfc3339(page.query.endTime)})`);
  }
  const records = Number(c.n);
  if (page.stated.recordCount !== undefined && page.stated.recordCount !== records) {
    throw fail(`metadata.recordCount is ${page.stated.recordCount} but ${records} records arrived`);
  }
  const sums: Record<string, bigint> = {};
  for (const f of def.amountFields) {
    const sum = decimalStringToMicros(c[`sum:${f}`] ?? '0');
    sums[f] = sum;
    const stated = page.stated.totals[f];
    if (stated !== undefined && decimalStringToMicros(stated) !== sum) {
      throw fail(`metadata.totals.${f} is ${trimZeros(stated)} but the records add up to ${trimZeros(microsToDecimalString(sum))}`);
    }
  }
  const warnings: string[] = [];
  const unique = c.unique_ids == null ? undefined : Number(c.unique_ids);
  if (def.uniqueCountKey && page.stated.uniqueCount !== undefined && unique !== undefined && page.stated.uniqueCount !== unique) {
    // a count of resources is derivable metadata: a wrong one is said, not fatal (§2 invariants)
    warnings.push(`${page.what}: metadata ${def.uniqueCountKey} (${page.stated.uniqueCount}, records have ${unique}) unusable; derived from the ${records} records`);
  }
  return { records, sums, warnings };
}

/**
 * Which staged records a per-resource source keeps: not those whose every amount is zero. A dense answer lists every
 * resource billed somewhere in the window asked for, zeros included, and a sparse one none of them (billing-api-v2.md
 * §2: the client accepts both) – so which zero rows arrive depends on the window, and a full read and an incremental
 * re-read of the same days would keep different rows of equal sums (issue 37 §5). Kept as the sparse answer holds
 * them, both agree. A missing amount is no zero (it is kept, and the checks name it). The aggregate route answers one
 * record per bucket whatever the window, so it keeps its zero buckets.
 */
function keptRecords(def: BillingSourceDef): string {
  if (!def.idColumn) return '';
  return ` where ${def.amounts.map((a) => `${a.column} is distinct from 0`).join(' or ')}`;
}

/** Time spent in loadBillingPage in this process (ms) and pages loaded, for bench:sync's step split. */
export const loadTimings = { ms: 0, pages: 0 };

/**
 * Replace the store's records of the page's window with the page's records, in one transaction with the load
 * record, the restatement log and the watermark.
 */
export async function loadBillingPage(ctx: LoadContext, page: SpooledPage, defs: readonly BillingSourceDef[]): Promise<LoadResult> {
  const started = performance.now();
  try {
    return await loadPage(ctx, page, defs);
  } finally {
    loadTimings.ms += performance.now() - started;
    loadTimings.pages++;
  }
}

async function loadPage(ctx: LoadContext, page: SpooledPage, defs: readonly BillingSourceDef[]): Promise<LoadResult> {
  const { store, def } = ctx;
  await ensureStageTables(store, defs);
  const loadId = randomUUID();
  const extractedAt = new Date();
  await stagePage(ctx, page, loadId, extractedAt);
  const checked = await checkPage(ctx, page);

  const windowStart = page.query.startTime.toISOString();
  const windowEnd = page.query.endTime.toISOString();
  const stage = stageName(def);
  const keyCols = def.idColumn ? ['start_time', def.idColumn] : ['start_time'];
  const total = checked.sums.totalAmount ?? 0n;
  const loadedThrough = page.query.endTime < ctx.serverNow ? page.query.endTime : ctx.serverNow;
  const params = { account: ctx.account, size: ctx.bucketSize, ws: windowStart, we: windowEnd };

  return store.transaction(async () => {
    // What moved since the last read of these buckets. A bucket read while it was still open (its end after the
    // previous extraction) grew; a closed one was restated. Missing on one side counts as zero (sparse answers).
    const moved = await store.all<{ kind: string }>(
      `insert into _meta_restatements
         with previous as (
             select loaded_from, loaded_through from _meta_watermarks
             where account = $account and source = $source and bucket_size = $size
         ),
         old as (
             select * from ${def.table}
             where account = $account and bucket_size = $size and start_time >= $ws::timestamptz and start_time < $we::timestamptz
         ),
         compared as (
             select coalesce(n.start_time, o.start_time) as bucket_start,
                    coalesce(n.end_time, o.end_time) as bucket_end,
                    ${def.idColumn ? `coalesce(n.${def.idColumn}, o.${def.idColumn})` : `''`} as resource_id,
                    o.total_amount as old_amount,
                    n.total_amount as new_amount
             from ${stage} n
             full outer join old o using (${keyCols.join(', ')})
             where coalesce(o.total_amount, 0) <> coalesce(n.total_amount, 0)
         )
         select now(), $load, $account, $source, $size, c.bucket_start, c.resource_id,
                case when c.bucket_end > p.loaded_through then 'growth'
                     when c.new_amount is null then 'removed'
                     else 'restatement' end,
                c.old_amount, c.new_amount
         from compared c, previous p
         where c.bucket_start >= p.loaded_from and c.bucket_start < p.loaded_through
       returning kind`,
      { ...params, load: loadId, source: def.source },
    ).catch((e: unknown) => {
      throw new StoreError(`comparing ${def.source} ${ctx.bucketSize} [${windowStart}, ${windowEnd}) with the stored records failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
    });
    await store.run(
      `delete from ${def.table} where account = $account and bucket_size = $size and start_time >= $ws::timestamptz and start_time < $we::timestamptz`,
      params,
    );
    await store.run(`insert into ${def.table} select * from ${stage}${keptRecords(def)}`);
    if (def.family && (ctx.bucketSize === 'day' || ctx.bucketSize === 'hour')) {
      // the days of this window must be computed again in fct_cost_daily before the session publishes
      await store.run(
        `insert into _meta_cost_changes values ($account, $family, null, $from::date, $to::date, 'billing load', now())`,
        { account: ctx.account, family: def.family, from: utcDay(page.query.startTime), to: utcDay(ceilToBucket(page.query.endTime, 'day')) },
      );
    }
    await store.run(
      `insert into _meta_loads values ($load, $run, $account, $source, $size, $ws::timestamptz, $we::timestamptz, $records, $bytes, $total::decimal(38,6), $at::timestamptz)`,
      {
        load: loadId, run: ctx.runId, account: ctx.account, source: def.source, size: ctx.bucketSize, ws: windowStart, we: windowEnd,
        records: checked.records, bytes: page.bytes, total: microsToDecimalString(total), at: extractedAt.toISOString(),
      },
    );
    await moveBillingWatermark(store, {
      account: ctx.account, source: def.source, bucketSize: ctx.bucketSize, windowStart: page.query.startTime, loadedThrough,
      completeThrough: ctx.completeThrough, lastOfRange: ctx.lastOfRange, runId: ctx.runId,
    });
    await store.run(
      `update _meta_runs set records = records + $records, bytes = bytes + $bytes where run_id = $run`,
      { records: checked.records, bytes: page.bytes, run: ctx.runId },
    );
    return {
      loadId,
      records: checked.records,
      totalMicros: total,
      growth: moved.filter((m) => m.kind === 'growth').length,
      restated: moved.filter((m) => m.kind !== 'growth').length,
      warnings: checked.warnings,
    };
  });
}
