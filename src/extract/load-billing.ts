// Loading one billing page: the records go into a temp staging table through the Appender (whole DataChunks, never
// one INSERT per row); then one transaction compares them with what the store held for that window (growth of the
// open bucket, restatements of closed ones), replaces the window, writes the load record and moves the watermark.
// A failure anywhere rolls the transaction back: the window keeps its previous contents and the watermark does not
// move, so the next sync reads it again.
import { randomUUID } from 'node:crypto';
import { DuckDBDataChunk, DuckDBDecimalValue, DuckDBTimestampTZValue, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import type { BillingPage } from '../api/index.ts';
import type { Store } from '../store/database.ts';
import { StoreError } from '../util/errors.ts';
import { microsToDecimalString } from '../util/decimal.ts';
import type { BucketSize } from '../util/buckets.ts';
import type { BillingSourceDef } from './billing-sources/index.ts';
import { moveBillingWatermark } from './watermarks.ts';

/** DuckDB's vector size: the most rows one DataChunk carries. */
const CHUNK_ROWS = 2048;

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
}

function stageName(def: BillingSourceDef): string {
  return `stage_${def.table}`;
}

const staged = new WeakSet<Store>();

async function ensureStageTables(store: Store, defs: readonly BillingSourceDef[]): Promise<void> {
  if (staged.has(store)) return;
  for (const def of defs) {
    await checkTableMatchesDeclaration(store, def);
    await store.run(`create temp table if not exists ${stageName(def)} as select * from ${def.table} limit 0`);
  }
  staged.add(store);
}

/** The raw table and the source's declaration must list the same columns in the same order: a column the loader
 * does not know would be filled by position with the wrong field's money. */
async function checkTableMatchesDeclaration(store: Store, def: BillingSourceDef): Promise<void> {
  const rows = await store.all<{ column_name: string }>(
    `select column_name from information_schema.columns where table_schema = 'main' and table_name = $1 order by ordinal_position`,
    [def.table],
  );
  const actual = rows.map((r) => r.column_name);
  const missing = def.columns.filter((c) => !actual.includes(c));
  const undeclared = actual.filter((c) => !def.columns.includes(c));
  if (missing.length > 0 || undeclared.length > 0 || actual.join() !== def.columns.join()) {
    throw new StoreError(
      `${def.table} does not match the declaration of the ${def.source} billing source` +
        (missing.length ? `; declared but not in the table: ${missing.join(', ')}` : '') +
        (undeclared.length ? `; in the table but not declared: ${undeclared.join(', ')}` : '') +
        (!missing.length && !undeclared.length ? `; column order differs (table: ${actual.join(', ')})` : '') +
        ' – add a migration or fix src/extract/billing-sources/',
    );
  }
}

/** A declared amount of one record, never a silent zero when it is missing (STYLE.md §6). */
function declaredAmount(def: BillingSourceDef, record: BillingPage['records'][number], field: string): bigint {
  const micros = record.amounts[field];
  if (micros === undefined) {
    throw new StoreError(`a ${def.source} record of [${record.startTime.toISOString()}, ${record.endTime.toISOString()}) has no ${field}, which the declaration requires`);
  }
  return micros;
}

function tsValue(cache: Map<number, DuckDBTimestampTZValue>, d: Date): DuckDBTimestampTZValue {
  const ms = d.getTime();
  let v = cache.get(ms);
  if (!v) {
    v = new DuckDBTimestampTZValue(BigInt(ms) * 1000n);
    cache.set(ms, v);
  }
  return v;
}

/** Append the page's records to the (emptied) staging table, column by column, 2048 rows per DataChunk. */
async function stagePage(ctx: LoadContext, page: BillingPage, loadId: string, extractedAt: Date): Promise<void> {
  const { store, def } = ctx;
  const table = stageName(def);
  await store.run(`delete from ${table}`);
  const appender = await store.connection.createAppender(table, 'main', 'temp');
  try {
    const types: DuckDBType[] = [];
    for (let i = 0; i < appender.columnCount; i++) types.push(appender.columnType(i));
    const times = new Map<number, DuckDBTimestampTZValue>();
    const extracted = tsValue(times, extractedAt);
    const records = page.records;
    for (let offset = 0; offset < records.length; offset += CHUNK_ROWS) {
      const slice = records.slice(offset, offset + CHUNK_ROWS);
      const n = slice.length;
      const columns: DuckDBValue[][] = [];
      columns.push(new Array<DuckDBValue>(n).fill(ctx.account));
      columns.push(new Array<DuckDBValue>(n).fill(ctx.bucketSize));
      columns.push(slice.map((r) => tsValue(times, r.startTime)));
      columns.push(slice.map((r) => tsValue(times, r.endTime)));
      if (def.idField) columns.push(slice.map((r) => r.id ?? ''));
      for (const field of def.amountFields) {
        columns.push(slice.map((r) => new DuckDBDecimalValue(declaredAmount(def, r, field), 18, 6)));
      }
      columns.push(new Array<DuckDBValue>(n).fill(loadId));
      columns.push(new Array<DuckDBValue>(n).fill(extracted));
      if (columns.length !== types.length) {
        throw new StoreError(`${def.table} has ${types.length} columns but ${columns.length} were prepared; the schema and src/extract/billing-sources/ disagree`);
      }
      const chunk = DuckDBDataChunk.create(types, n);
      chunk.setColumns(columns);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

/**
 * Replace the store's records of the page's window with the page's records, in one transaction with the load
 * record, the restatement log and the watermark.
 */
export async function loadBillingPage(ctx: LoadContext, page: BillingPage, defs: readonly BillingSourceDef[]): Promise<LoadResult> {
  const { store, def } = ctx;
  await ensureStageTables(store, defs);
  const loadId = randomUUID();
  const extractedAt = new Date();
  await stagePage(ctx, page, loadId, extractedAt);

  const windowStart = page.query.startTime.toISOString();
  const windowEnd = page.query.endTime.toISOString();
  const stage = stageName(def);
  const keyCols = def.idColumn ? ['start_time', def.idColumn] : ['start_time'];
  const total = page.records.reduce((s, r) => s + declaredAmount(def, r, 'totalAmount'), 0n);
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
    await store.run(`insert into ${def.table} select * from ${stage}`);
    await store.run(
      `insert into _meta_loads values ($load, $run, $account, $source, $size, $ws::timestamptz, $we::timestamptz, $records, $bytes, $total::decimal(38,6), $at::timestamptz)`,
      {
        load: loadId, run: ctx.runId, account: ctx.account, source: def.source, size: ctx.bucketSize, ws: windowStart, we: windowEnd,
        records: page.records.length, bytes: page.bytes, total: microsToDecimalString(total), at: extractedAt.toISOString(),
      },
    );
    await moveBillingWatermark(store, {
      account: ctx.account, source: def.source, bucketSize: ctx.bucketSize, windowStart: page.query.startTime, loadedThrough,
      completeThrough: ctx.completeThrough, lastOfRange: ctx.lastOfRange, runId: ctx.runId,
    });
    await store.run(
      `update _meta_runs set records = records + $records, bytes = bytes + $bytes where run_id = $run`,
      { records: page.records.length, bytes: page.bytes, run: ctx.runId },
    );
    return {
      loadId,
      records: page.records.length,
      totalMicros: total,
      growth: moved.filter((m) => m.kind === 'growth').length,
      restated: moved.filter((m) => m.kind !== 'growth').length,
    };
  });
}
