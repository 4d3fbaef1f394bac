// `gpuledger export lake`: the `cost` facts as Hive-partitioned Parquet – DIR/account=…/family=…/month=YYYY-MM/*.parquet
// – the layout Spark, Trino, Athena, BigQuery and ClickHouse read as one table. Written into a temporary directory
// and renamed into place, so readers never see half a lake.
import type { Store } from '../store/database.ts';
import { StoreError } from '../util/errors.ts';
import { discard, replaceWith, sqlPath, temporaryPathFor } from './atomic-replace.ts';
import type { ExportSummary } from './focus.ts';

export async function exportLake(store: Store, out: string): Promise<ExportSummary> {
  const tmp = temporaryPathFor(out);
  try {
    const reader = await store.connection.runAndReadAll(
      `copy (
          select
              *,
              -- the UTC month of the bucket, by integer day arithmetic (independent of the session time zone)
              strftime(date '1970-01-01' + (epoch_us(bucket_start) // 86400000000)::integer, '%Y-%m') as month,
          from cost
      ) to ${sqlPath(tmp)} (format parquet, compression zstd, partition_by (account, family, month))`,
    );
    const rows = Number(reader.getRowsJson()[0]?.[0] ?? 0);
    replaceWith(tmp, out);
    return { path: out, rows };
  } catch (e) {
    discard(tmp);
    throw new StoreError(`export lake to ${out} failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
}
