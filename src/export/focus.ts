// `gpuledger export focus`: the FOCUS 1.2 view (focus_cost) as one Parquet or CSV file, written atomically.
import type { Store } from '../store/database.ts';
import { StoreError } from '../util/errors.ts';
import { discard, replaceWith, sqlPath, temporaryPathFor } from './atomic-replace.ts';

export const FOCUS_FORMATS = ['parquet', 'csv'] as const;
export type FocusFormat = (typeof FOCUS_FORMATS)[number];

export interface ExportSummary {
  path: string;
  rows: number;
}

export async function exportFocus(store: Store, format: FocusFormat, out: string): Promise<ExportSummary> {
  const tmp = temporaryPathFor(out);
  // FOCUS dates are ISO 8601 in UTC (…T…Z); Parquet keeps them as UTC-adjusted timestamps
  const options =
    format === 'parquet'
      ? "format parquet, compression zstd"
      : "format csv, header true, timestampformat '%Y-%m-%dT%H:%M:%SZ'";
  try {
    const reader = await store.connection.runAndReadAll(`copy (select * from focus_cost) to ${sqlPath(tmp)} (${options})`);
    const rows = Number(reader.getRowsJson()[0]?.[0] ?? 0);
    replaceWith(tmp, out);
    return { path: out, rows };
  } catch (e) {
    discard(tmp);
    throw new StoreError(`export focus to ${out} failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
}
