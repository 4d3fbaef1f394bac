// What the planner needs from the store before a sync fetches anything: the watermarks and, per (account, source,
// bucket size), how many records a bucket held at the last load. Read once in a short session, so the fetching
// that follows holds nothing.
import type { Store } from '../store/database.ts';
import { countBuckets, type BucketSize } from '../util/buckets.ts';
import { readWatermarks, watermarkKey, type Watermark, type WatermarkKey } from './watermarks.ts';

export interface SyncState {
  watermark(account: string, source: string, bucketSize: string): Watermark | undefined;
  /** Records per bucket at the last load of this source (the same bucket size first), if any. */
  lastDensity(account: string, source: string, bucketSize: BucketSize): number | undefined;
}

type LastLoad = {
  account: string;
  source: string;
  bucket_size: BucketSize;
  records: string;
  ws: string;
  we: string;
};

export const EMPTY_SYNC_STATE: SyncState = { watermark: () => undefined, lastDensity: () => undefined };

export async function readSyncState(store: Store): Promise<SyncState> {
  const watermarks: Map<WatermarkKey, Watermark> = await readWatermarks(store);
  // the non-empty load of the newest window of every (account, source, bucket size): ranges are read newest-first,
  // so the last one extracted is the oldest and sparsest window, not the one the next sync starts from
  const loads = await store.all<LastLoad>(
    `select account, source, bucket_size, records::varchar records, window_start::varchar ws, window_end::varchar we
     from _meta_loads
     where records > 0 and bucket_size is not null
     qualify row_number() over (partition by account, source, bucket_size order by window_end desc, extracted_at desc) = 1`,
  );
  const density = (l: LastLoad) => {
    const buckets = countBuckets(new Date(l.ws), new Date(l.we), l.bucket_size);
    return buckets > 0 ? Number(l.records) / buckets : undefined;
  };
  return {
    watermark: (account, source, size) => watermarks.get(watermarkKey(account, source, size)),
    lastDensity(account, source, size) {
      // another size's window still counts the resources billed in it, which is what a dense grid multiplies by the buckets
      const chosen =
        loads.find((l) => l.account === account && l.source === source && l.bucket_size === size) ??
        loads.find((l) => l.account === account && l.source === source);
      return chosen ? density(chosen) : undefined;
    },
  };
}
