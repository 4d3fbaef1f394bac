// `gpuledger export focus`: the FOCUS 1.2 view (focus_cost) as one Parquet or CSV file, written atomically beside
// the target (src/outputs/) – the target was checked to be none of the store's files and no folder – or, for `--out -`,
// written whole in a scratch folder first and then copied to the standard output (DuckDB's COPY writes files only).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { quotedString } from '../util/duckdb-api.ts';
import { discard, moveIntoPlace, temporaryBeside } from '../outputs/atomic-file.ts';
import { createScratchFolder } from '../outputs/scratch-folder.ts';
import { copyToStandardOutput, STANDARD_OUTPUT } from '../outputs/standard-output.ts';
import type { Store } from '../store/database.ts';
import { isGpuledgerError, StoreError } from '../util/errors.ts';
import type { FocusFormat } from './focus-formats.ts';

export { FOCUS_FORMATS, type FocusFormat } from './focus-formats.ts';

export interface ExportSummary {
  path: string;
  rows: number;
}

export async function exportFocus(store: Store, format: FocusFormat, out: string, dbPath: string): Promise<ExportSummary> {
  const toStdout = out === STANDARD_OUTPUT;
  const scratch = toStdout ? createScratchFolder('gpuledger-focus-') : undefined;
  if (!scratch) mkdirSync(dirname(out), { recursive: true });
  const tmp = scratch ? join(scratch.path, `focus.${format}`) : temporaryBeside(out, dbPath);
  // FOCUS dates are ISO 8601 in UTC (…T…Z); Parquet keeps them as UTC-adjusted timestamps
  const options =
    format === 'parquet'
      ? "format parquet, compression zstd"
      : "format csv, header true, timestampformat '%Y-%m-%dT%H:%M:%SZ'";
  try {
    const reader = await store.connection.runAndReadAll(`copy (select * from focus_cost) to ${quotedString(tmp)} (${options})`);
    const rows = Number(reader.getRowsJson()[0]?.[0] ?? 0);
    if (scratch) await copyToStandardOutput(tmp);
    else moveIntoPlace(tmp, out);
    return { path: out, rows };
  } catch (e) {
    discard(tmp);
    if (isGpuledgerError(e)) throw e;
    throw new StoreError(`export focus to ${toStdout ? 'the standard output' : out} failed: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  } finally {
    scratch?.remove();
  }
}
