// The export's memory lives in PostgreSQL, beside the tables it describes (sql/postgres/_export_*.sql): export is a
// read-side command and never writes the DuckDB file, and state committed in the same transaction as the data can
// never disagree with it – a killed export leaves both as they were.
import type { ClientBase } from 'pg';
import { readSqlFolder } from '../../transform/sql-files.ts';
import { sliceKey, type Slice } from './slice-diff.ts';

export interface TableState {
  definition: string;
  fingerprint: string | null;
}

export interface ExportState {
  tables: Map<string, TableState>;
  /** Day slices by table, keyed by sliceKey. */
  days: Map<string, Map<string, Slice>>;
}

/** Create the state tables when missing (the schema is first on the search_path). */
export async function ensureStateTables(client: ClientBase): Promise<void> {
  for (const file of readSqlFolder('postgres')) await client.query(file.sql);
}

export async function readState(client: ClientBase): Promise<ExportState> {
  const tables = new Map<string, TableState>();
  for (const r of (await client.query<{ table_name: string; definition: string; fingerprint: string | null }>('select table_name, definition, fingerprint from _export_tables')).rows) {
    tables.set(r.table_name, { definition: r.definition, fingerprint: r.fingerprint });
  }
  const days = new Map<string, Map<string, Slice>>();
  const rows = await client.query<{ table_name: string; account: string; day: string; fingerprint: string; row_count: string }>(
    `select table_name, account, to_char(day, 'YYYY-MM-DD') as day, fingerprint, row_count::text as row_count from _export_days`,
  );
  for (const r of rows.rows) {
    let m = days.get(r.table_name);
    if (!m) days.set(r.table_name, (m = new Map()));
    m.set(sliceKey(r.account, r.day), { account: r.account, day: r.day, fingerprint: r.fingerprint, rows: Number(r.row_count) });
  }
  return { tables, days };
}

export async function saveDaySlices(client: ClientBase, table: string, slices: readonly Slice[], exportId: number): Promise<void> {
  if (slices.length === 0) return;
  await client.query(
    `insert into _export_days (table_name, account, day, fingerprint, row_count, export_id)
     select $1, s.account, s.day, s.fingerprint, s.row_count, $6
     from unnest($2::text[], $3::date[], $4::text[], $5::bigint[]) as s(account, day, fingerprint, row_count)
     on conflict (table_name, account, day) do update
     set fingerprint = excluded.fingerprint, row_count = excluded.row_count, export_id = excluded.export_id`,
    [table, slices.map((s) => s.account), slices.map((s) => s.day), slices.map((s) => s.fingerprint), slices.map((s) => s.rows), exportId],
  );
}

export async function forgetDaySlices(client: ClientBase, table: string, slices: readonly Slice[] | 'all'): Promise<void> {
  if (slices === 'all') {
    await client.query('delete from _export_days where table_name = $1', [table]);
    return;
  }
  if (slices.length === 0) return;
  await client.query(
    `delete from _export_days as d using unnest($2::text[], $3::date[]) as s(account, day)
     where d.table_name = $1 and d.account = s.account and d.day = s.day`,
    [table, slices.map((s) => s.account), slices.map((s) => s.day)],
  );
}

export async function saveTable(client: ClientBase, table: string, state: TableState & { rows: number }, exportId: number): Promise<void> {
  await client.query(
    `insert into _export_tables (table_name, definition, fingerprint, row_count, export_id) values ($1, $2, $3, $4, $5)
     on conflict (table_name) do update
     set definition = excluded.definition, fingerprint = excluded.fingerprint, row_count = excluded.row_count, export_id = excluded.export_id`,
    [table, state.definition, state.fingerprint, state.rows, exportId],
  );
}
