// The SQL layer rule, written once (STYLE.md §17): what each kind of SQL may read. Staging renames and casts the raw
// tables; marts join and attribute; report views are exactly what a sheet or an alert reads; alert rules, report
// definitions and `allocation explain` read the layer meant for them. The view applier refuses a view that reads
// past its layer (naming the file and the reference), and test/store/sql-layers.test.ts holds the other SQL to it.
import { codeOnly } from './sql-text.ts';

/** What a name in SQL refers to. */
export type SqlObjectKind = 'raw' | 'meta' | 'materialized' | 'staging' | 'marts' | 'reports' | 'clock';

/** Who reads: the view folders, and the SQL that lives elsewhere. */
export type SqlReader = 'staging' | 'marts' | 'reports' | 'alerts' | 'definitions' | 'allocation' | 'materialize' | 'metrics';

export const SQL_LAYER_RULE: Readonly<Record<SqlReader, readonly SqlObjectKind[]>> = {
  // raw_* tables and the _meta_* tables gpuledger keeps, renamed and cast
  staging: ['raw', 'meta', 'staging'],
  // joins, attribution, allocation: staging and other marts, the materialised tables (fct_*), the rules in _meta_*
  marts: ['staging', 'marts', 'materialized', 'meta', 'clock'],
  // what a sheet or an alert reads: marts and other report views, never staging or raw tables
  reports: ['marts', 'materialized', 'reports', 'clock'],
  // sql/alerts/*.sql and the `sql:` of reports/*.yaml: report views only, and the clock that says what "now" is
  alerts: ['reports', 'clock'],
  definitions: ['reports', 'clock'],
  // the queries of `allocation explain`: the allocation marts
  allocation: ['marts', 'materialized', 'meta'],
  // sql/metrics: what `metrics import` checks a file's scopes against, from the cost marts
  metrics: ['marts', 'materialized'],
  // sql/materialize: computes the materialised tables from the marts, and keeps their bookkeeping (which compares
  // the raw tables' counts with what the tables were computed from)
  materialize: ['raw', 'staging', 'marts', 'materialized', 'meta', 'clock'],
};

const KIND_WORDS: Record<SqlObjectKind, string> = {
  raw: 'a raw table',
  meta: "one of gpuledger's _meta_ tables",
  materialized: 'a materialised table',
  staging: 'a staging view',
  marts: 'a mart',
  reports: 'a report view',
  clock: 'the report clock',
};

const PLURAL_WORDS: Record<SqlObjectKind, string> = {
  raw: 'raw tables',
  meta: '_meta_ tables',
  materialized: 'materialised tables (fct_*)',
  staging: 'staging views',
  marts: 'marts',
  reports: 'report views',
  clock: 'report_clock',
};

export interface SqlObjects {
  /** View (and table macro) names by the folder they live in. */
  views: ReadonlyMap<string, 'staging' | 'marts' | 'reports'>;
}

/** What kind of object a name is, or undefined for a name that is none of ours (a CTE, a column, a function). */
export function kindOf(name: string, objects: SqlObjects): SqlObjectKind | undefined {
  if (name === 'report_clock') return 'clock';
  const layer = objects.views.get(name);
  if (layer) return layer;
  if (name.startsWith('raw_')) return 'raw';
  if (name.startsWith('_meta_')) return 'meta';
  if (name.startsWith('fct_')) return 'materialized';
  return undefined;
}

/** The relations a piece of SQL reads: every name after FROM or JOIN (tables, views, table macros). */
export function readRelations(sql: string): string[] {
  const names = [...codeOnly(sql).matchAll(/\b(?:from|join)\s+(?:main\.)?([a-z_][a-z0-9_]*)/g)].map((m) => m[1]!);
  return [...new Set(names)].sort();
}

export interface LayerViolation {
  reference: string;
  kind: SqlObjectKind;
  message: string;
}

/** The references of `sql` that its reader may not read, each with a sentence saying so and what to do instead. */
export function layerViolations(sql: string, reader: SqlReader, objects: SqlObjects): LayerViolation[] {
  const allowed = SQL_LAYER_RULE[reader];
  const out: LayerViolation[] = [];
  for (const name of readRelations(sql)) {
    const kind = kindOf(name, objects);
    if (kind === undefined || allowed.includes(kind)) continue;
    out.push({
      reference: name,
      kind,
      message: `reads ${name} (${KIND_WORDS[kind]}), but ${readerWords(reader)} may read only ${allowed.map((k) => PLURAL_WORDS[k]).join(', ')} – ${advice(reader)}`,
    });
  }
  return out;
}

function readerWords(reader: SqlReader): string {
  switch (reader) {
    case 'staging': return 'staging';
    case 'marts': return 'marts';
    case 'reports': return 'report views';
    case 'alerts': return 'alert rules';
    case 'definitions': return 'report definitions';
    case 'allocation': return 'allocation queries';
    case 'materialize': return 'refresh queries';
    case 'metrics': return 'metrics import queries';
  }
}

function advice(reader: SqlReader): string {
  if (reader === 'reports') return 'move the joins into a mart (sql/views/marts/) and read that';
  if (reader === 'alerts' || reader === 'definitions') return 'read a report view (sql/views/reports/), adding one if needed';
  return 'read the layer below through its views';
}
