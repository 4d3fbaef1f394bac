// Parquet and JSON metrics files, read by DuckDB (in memory, nothing else opened): the same columns as the CSV
// (read-csv.ts), each taken as text so a JSON number or a Parquet DECIMAL keeps its exact digits. Records are numbered from 1.
import { DuckDBInstance } from '../util/duckdb-api.ts';
import { ACCEPTED_COLUMNS, MetricsFileError, METRICS_HEADER, OPTIONAL_COLUMNS, type RawMetricRow } from './metric-rows.ts';

const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export async function readMetricsWithDuckdb(path: string, kind: 'parquet' | 'json', file: string): Promise<RawMetricRow[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const source =
      kind === 'parquet'
        ? `read_parquet($path)`
        : // JSON numbers read as VARCHAR keep the text as written: 0.1 stays 0.1, never a double
          `read_json($path, columns = {date: 'VARCHAR', metric: 'VARCHAR', value: 'VARCHAR', scope: 'VARCHAR', account: 'VARCHAR'})`;
    let names: string[];
    try {
      const described = await connection.runAndReadAll(`describe select * from ${source}`, { path });
      names = described.getRowObjectsJson().map((r) => String(r.column_name));
    } catch (e) {
      throw new MetricsFileError(`${file}: DuckDB cannot read it as ${kind} (${(e as Error).message.split('\n')[0]})`, { cause: e });
    }
    const missing = METRICS_HEADER.filter((h) => !OPTIONAL_COLUMNS.includes(h) && !names.includes(h));
    if (missing.length > 0) throw new MetricsFileError(`${file}: no ${missing.join(', ')} column; expected ${ACCEPTED_COLUMNS}`);
    const unknown = names.find((n) => !(METRICS_HEADER as readonly string[]).includes(n));
    if (unknown !== undefined) throw new MetricsFileError(`${file}: a column '${unknown}' that gpuledger does not read; expected ${ACCEPTED_COLUMNS}`);
    const cols = METRICS_HEADER.map((h) => (names.includes(h) ? `cast("${h}" as varchar) as "${h}"` : `'' as "${h}"`)).join(', ');
    const reader = await connection.runAndReadAll(`select ${cols} from ${source}`, { path });
    return reader.getRowObjectsJson().map((r, i) => ({
      line: i + 1,
      date: asText(r.date),
      metric: asText(r.metric),
      value: asText(r.value),
      scope: asText(r.scope),
      account: asText(r.account),
    }));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
