// Pod records of one day bucket loaded through the real loader, each batch spooled to a file as a sync spools a page:
// what the back-test and restatement fixtures load twice to make a restatement (the loader records it as a sync does).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBillingPage, type LoadResult, type SpooledPage } from '../../src/extract/load-billing.ts';
import { startRun } from '../../src/extract/runs.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import type { Store } from '../../src/store/database.ts';

/** One pod's record, amounts as decimal strings; the components default to all GPU. */
export interface PodRecord {
  id: string;
  total: string;
  gpu?: string;
  cpu?: string;
  disk?: string;
}

export interface PodBucket {
  store: Store;
  /** Where the spooled pages are written. */
  dir: string;
  /** The day bucket's start (UTC midnight). */
  start: Date;
  /** The billing the loader is told is final through. */
  completeThrough: Date;
}

const DAY = 86_400_000;

/** A loader of batches of pod records for the bucket, all in one sync run (started here). */
export async function podBucketLoader(bucket: PodBucket): Promise<(records: PodRecord[]) => Promise<LoadResult>> {
  const { store, dir, start, completeThrough } = bucket;
  const end = new Date(start.getTime() + DAY);
  const runId = await startRun(store, 'sync', 'test');
  let pages = 0;
  return (records) => {
    // the records as the API writes them (JSON numbers)
    const file = join(dir, `page-${++pages}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        records.map((r) => ({
          startTime: start.toISOString(),
          endTime: end.toISOString(),
          podId: r.id,
          totalAmount: Number(r.total),
          gpuAmount: Number(r.gpu ?? r.total),
          cpuAmount: Number(r.cpu ?? 0),
          diskAmount: Number(r.disk ?? 0),
        })),
      ),
    );
    const page: SpooledPage = {
      route: 'pods',
      path: '/v2/billing/pods',
      what: `GET /v2/billing/pods [${start.toISOString()}, ${end.toISOString()}) day`,
      query: { startTime: start, endTime: end, bucketSize: 'day' },
      file,
      recordCount: records.length,
      stated: { recordCount: records.length, totals: {} },
      read: 'split',
      bytes: 100,
      warnings: [],
    };
    return loadBillingPage(
      { store, runId, account: 'acme', def: BILLING_SOURCE_DEFS.pods, bucketSize: 'day', serverNow: new Date(), completeThrough, lastOfRange: true },
      page,
      Object.values(BILLING_SOURCE_DEFS),
    );
  };
}
