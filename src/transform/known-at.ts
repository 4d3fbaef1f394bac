// Back-testing on what was known then (`alerts --as-of T`): temp tables named like the raw billing tables hold the
// rows as they were loaded at T, and DuckDB resolves a name in the temp catalog before the database's own, so every
// view above them (billing_*, cost, rpt_*) reads the past without a change. A load replaces the records of the window
// it re-read, so the raw tables hold only the latest version; the older amounts live in _meta_restatements
// (sql/schema/001_init.sql), one row per record whose total_amount moved, with the load that moved it:
//
// - a row last loaded at or before T is what T knew;
// - a row loaded after T whose record moved after T knew the old total_amount of the first such move (none: the
//   record was new then, so T did not know it);
// - a row loaded after T that did not move was known at T if a load at or before T covered its bucket;
// - a record removed after T comes back with the total it had.
//
// Limits: _meta_restatements keeps the total only, so a restated record's components (gpu, cpu, disk …) are the
// current ones scaled to the old total, in exact micro-dollars with the rounding remainder in the first component,
// and a removed record's total goes into its first component. Inventory (names, templates) and the watermarks are
// as loaded now. fct_cost_daily, which readers read instead of re-deriving cost from the raw tables, is shadowed
// too, computed from the shadowed rows.
import { quotedIdentifier } from '../util/duckdb-api.ts';
import type { SqlSession as Store } from './sql-session.ts';
import { dropShadowedMaterialized, shadowMaterialized } from './materialize.ts';
import { BILLING_SOURCE_DEFS, type BillingSourceDef } from '../model/index.ts';

const BUCKET_INTERVAL: Record<string, string> = { hour: '1 hour', day: '1 day', week: '7 days', month: '1 month', year: '1 year' };

function micros(expr: string): string {
  return `(${expr} * 1000000)::hugeint`;
}

// multiplying by 0.000001 (a DECIMAL) keeps it exact; dividing DECIMALs would go through a double
function asDecimal(microsExpr: string): string {
  return `((${microsExpr})::decimal(38,0) * 0.000001::decimal(7,6))::decimal(18,6)`;
}

/** The select list of a reconstructed row, in the raw table's column order. */
function rowAsOf(def: BillingSourceDef): string {
  const parts = def.amounts.slice(1).map((a) => a.column);
  const cols = def.columns.map((col) => {
    if (col === 'total_amount') return `coalesce(c.old_amount, c.total_amount) as total_amount`;
    const i = parts.indexOf(col);
    if (i < 0) return `c.${col}`;
    // the share of each component in the current total, applied to the old total; the remainder goes to the first
    const share = (name: string) => `${micros(`c.${name}`)} * ${micros('c.old_amount')} // ${micros('c.total_amount')}`;
    const scaled =
      i === 0 ? `${micros('c.old_amount')} - (${parts.slice(1).map((p) => share(p)).join(' + ') || '0'})` : share(col);
    const zeroTotal = i === 0 ? micros('c.old_amount') : '0';
    return `case when c.old_amount is null then c.${col} when c.total_amount = 0 then ${asDecimal(zeroTotal)} else ${asDecimal(scaled)} end as ${col}`;
  });
  return cols.join(',\n    ');
}

function removedRow(def: BillingSourceDef): string {
  const parts = def.amounts.slice(1).map((a) => a.column);
  const interval = Object.entries(BUCKET_INTERVAL)
    .map(([size, iv]) => `when '${size}' then k.bucket_start + interval ${iv}`)
    .join(' ');
  return def.columns
    .map((col) => {
      if (col === 'account' || col === 'bucket_size') return `k.${col}`;
      if (col === 'start_time') return 'k.bucket_start';
      if (col === 'end_time') return `case k.bucket_size ${interval} end`;
      if (col === def.idColumn) return 'k.resource_id';
      if (col === 'total_amount') return 'k.old_amount';
      if (col === parts[0]) return 'k.old_amount';
      if (parts.includes(col)) return '0::decimal(18,6)';
      if (col === '_load_id') return 'null::varchar';
      return '$t::timestamptz';
    })
    .map((expr, i) => `${expr} as ${def.columns[i]}`)
    .join(', ');
}

function knownAtSql(def: BillingSourceDef, db: string): string {
  const rid = def.idColumn ? `coalesce(c.${def.idColumn}, '')` : `''`;
  return `create or replace temp table ${def.table} as
with current_rows as (
    select * from ${db}.main.${def.table}
),
later as (
    select r.account, r.bucket_size, r.bucket_start, r.resource_id,
           first(r.old_amount order by l.extracted_at, r.detected_at) as old_amount,
    from ${db}.main._meta_restatements as r
    join ${db}.main._meta_loads as l on l.load_id = r.load_id
    where r.source = $source and l.extracted_at > $t::timestamptz
    group by all
),
known_windows as (
    select account, bucket_size, window_start, window_end
    from ${db}.main._meta_loads
    where source = $source and extracted_at <= $t::timestamptz
),
joined as (
    -- only a row loaded after T can have moved after T
    select c.*,
           case when c._extracted_at > $t::timestamptz then k.old_amount end as old_amount,
           c._extracted_at > $t::timestamptz and k.account is not null as moved_later,
    from current_rows as c
    left join later as k
        on k.account = c.account and k.bucket_size = c.bucket_size and k.bucket_start = c.start_time and k.resource_id = ${rid}
),
kept as (
    select ${rowAsOf(def)}
    from joined as c
    where c._extracted_at <= $t::timestamptz
        or (c.moved_later and c.old_amount is not null)
        or (not c.moved_later and exists (
            select 1 from known_windows as w
            where w.account = c.account and w.bucket_size = c.bucket_size
                and c.start_time >= w.window_start and c.start_time < w.window_end
        ))
),
removed as (
    select ${removedRow(def)}
    from later as k
    where k.old_amount is not null
        and not exists (
            select 1 from current_rows as c
            where c.account = k.account and c.bucket_size = k.bucket_size and c.start_time = k.bucket_start and ${rid} = k.resource_id
        )
)
select * from kept
union all
select * from removed`;
}

/** The raw billing tables as loaded at `knownAt`, shadowing the real ones on this connection until dropKnownAt. */
export async function shadowKnownAt(store: Store, knownAt: Date): Promise<void> {
  const db = await store.one<{ name: string }>('select current_database() as name');
  const quoted = quotedIdentifier(db!.name);
  for (const def of Object.values(BILLING_SOURCE_DEFS)) {
    await store.run(knownAtSql(def, quoted), { source: def.source, t: knownAt.toISOString() });
  }
  await shadowMaterialized(store);
}

export async function dropKnownAt(store: Store): Promise<void> {
  await dropShadowedMaterialized(store);
  for (const def of Object.values(BILLING_SOURCE_DEFS)) await store.run(`drop table if exists temp.main.${def.table}`);
}
