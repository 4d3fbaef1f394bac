// The watermark of each (account, source, bucket size): how far its history reaches (loaded_from, loaded_through)
// and up to where its buckets are final (complete_through). The planner reads them, the loaders move them inside
// the transaction that loads the records, and `sync --plan` and the summary show them; this module is the only one
// that touches _meta_watermarks.
import type { Store } from '../store/database.ts';

export interface Watermark {
  loadedFrom: Date | null;
  loadedThrough: Date | null;
  completeThrough: Date | null;
}

export type WatermarkKey = `${string}/${string}/${string}`;

export function watermarkKey(account: string, source: string, bucketSize: string): WatermarkKey {
  return `${account}/${source}/${bucketSize}`;
}

const date = (s: string | null) => (s ? new Date(s) : null);

/** Every stored watermark, keyed by account/source/bucket size. */
export async function readWatermarks(store: Store): Promise<Map<WatermarkKey, Watermark>> {
  const rows = await store.all<{ account: string; source: string; bucket_size: string; f: string | null; t: string | null; c: string | null }>(
    `select account, source, bucket_size, loaded_from::varchar f, loaded_through::varchar t, complete_through::varchar c
     from _meta_watermarks`,
  );
  return new Map(
    rows.map((r) => [watermarkKey(r.account, r.source, r.bucket_size), { loadedFrom: date(r.f), loadedThrough: date(r.t), completeThrough: date(r.c) }]),
  );
}

export async function readWatermark(store: Store, account: string, source: string, bucketSize: string): Promise<Watermark | undefined> {
  const row = await store.one<{ f: string | null; t: string | null; c: string | null }>(
    `select loaded_from::varchar f, loaded_through::varchar t, complete_through::varchar c from _meta_watermarks
     where account = $1 and source = $2 and bucket_size = $3`,
    [account, source, bucketSize],
  );
  return row ? { loadedFrom: date(row.f), loadedThrough: date(row.t), completeThrough: date(row.c) } : undefined;
}

export interface BillingWatermarkMove {
  account: string;
  source: string;
  bucketSize: string;
  /** The window just loaded starts here. */
  windowStart: Date;
  /** Loaded through: the window's end, never past the platform's now. */
  loadedThrough: Date;
  /** Buckets ending at or before this are final (older than the lookback). */
  completeThrough: Date;
  /** The last chunk of its range: last_success_at moves only then. */
  lastOfRange: boolean;
  runId: string;
}

/** Extend a billing watermark over a window just loaded (call inside the load's transaction). */
export async function moveBillingWatermark(store: Store, m: BillingWatermarkMove): Promise<void> {
  await store.run(
    `insert into _meta_watermarks as w values ($account, $source, $size, $ws::timestamptz, $through::timestamptz,
            least($complete::timestamptz, $through::timestamptz), case when $last then now() end, $run)
     on conflict (account, source, bucket_size) do update set
       loaded_from = least(w.loaded_from, excluded.loaded_from),
       loaded_through = greatest(w.loaded_through, excluded.loaded_through),
       complete_through = least($complete::timestamptz, greatest(w.loaded_through, excluded.loaded_through)),
       last_success_at = coalesce(excluded.last_success_at, w.last_success_at),
       last_run_id = excluded.last_run_id`,
    {
      account: m.account, source: m.source, size: m.bucketSize, ws: m.windowStart.toISOString(), through: m.loadedThrough.toISOString(),
      complete: m.completeThrough.toISOString(), last: m.lastOfRange, run: m.runId,
    },
  );
}

/** The inventory is as fresh as a read in which every list answered (call inside the inventory's transaction). */
export async function moveInventoryWatermark(store: Store, account: string, readAt: Date, runId: string): Promise<void> {
  await store.run(
    `insert into _meta_watermarks as w values ($account, 'inventory', '', $now::timestamptz, $now::timestamptz, $now::timestamptz, now(), $run)
     on conflict (account, source, bucket_size) do update set
       loaded_through = excluded.loaded_through, complete_through = excluded.complete_through,
       last_success_at = excluded.last_success_at, last_run_id = excluded.last_run_id`,
    { account, now: readAt.toISOString(), run: runId },
  );
}
