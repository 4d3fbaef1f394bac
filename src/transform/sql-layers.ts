// The SQL layer rule, written once (STYLE.md §17): what each kind of SQL may read. The view layers do not interleave
// (issue 41): staging renames and casts the raw and _meta_ tables, one table each; intermediate views (int_*) join and
// attribute staging and each other; marts are the public dims and facts, built on intermediate views and other marts;
// report views are exactly what a sheet or an alert reads, built on marts and other report views. Each layer reads
// only its own and the one below. Macros (sql/macros) belong to no layer: a view that calls one reads what the macro
// reads, and is held to its own rule for it. Alert rules, report definitions and `allocation explain` read the layer
// meant for them. References come from DuckDB's parser, not from words. The view applier refuses a view that reads
// past its layer (naming the file and the reference), and test/transform/sql-layers.test.ts holds the other SQL to it.
import { codeOnly } from './sql-text.ts';

/** What a name in SQL refers to. */
export type SqlObjectKind = 'raw' | 'meta' | 'materialized' | 'staging' | 'intermediate' | 'marts' | 'reports' | 'clock';

/** The layers of sql/views, in the order they read each other. */
export type ViewLayer = 'staging' | 'intermediate' | 'marts' | 'reports';

/** Who reads: the view folders, and the SQL that lives elsewhere. */
export type SqlReader =
  | 'staging' | 'intermediate' | 'marts' | 'reports' | 'alerts' | 'definitions' | 'allocation' | 'materialize' | 'metrics'
  | 'loaders' | 'application';

export const SQL_LAYER_RULE: Readonly<Record<SqlReader, readonly SqlObjectKind[]>> = {
  // raw_* tables and the _meta_* tables gpuledger keeps, renamed and cast – never another staging view
  staging: ['raw', 'meta'],
  // joins, attribution, allocation: staging and the other intermediate views, and the fct_* tables – intermediate
  // results kept as tables (int_cost_attributed_in at grain 'day', int_cost_allocated, …: src/transform/materialize.ts)
  intermediate: ['staging', 'intermediate', 'materialized'],
  // the public dims and facts: intermediate views, the fct_* tables they are kept in, and other marts
  marts: ['intermediate', 'materialized', 'marts', 'clock'],
  // what a sheet or an alert reads: marts and other report views, never an intermediate view, staging or raw tables
  reports: ['marts', 'reports', 'clock'],
  // sql/alerts/*.sql and the `sql:` of reports/*.yaml: report views only, and the clock that says what "now" is
  alerts: ['reports', 'clock'],
  definitions: ['reports', 'clock'],
  // the queries of `allocation explain`: the allocation marts
  allocation: ['intermediate', 'marts', 'materialized', 'meta'],
  // sql/metrics: what `metrics import` checks a file's scopes against, from the cost marts
  metrics: ['intermediate', 'marts', 'materialized'],
  // sql/materialize: computes the materialised tables from the marts, and keeps their bookkeeping (which compares
  // the raw tables' counts with what the tables were computed from)
  materialize: ['raw', 'staging', 'intermediate', 'marts', 'materialized', 'meta', 'clock'],
  // SQL written in TypeScript, by the folder of src/ it lives in (TS_SQL_READER): the modules that load, keep and
  // materialise the store reach every layer; every other module reads what a person could – marts, report views,
  // the fct_* tables and gpuledger's own _meta_ bookkeeping – never raw, staging or intermediate
  loaders: ['raw', 'staging', 'intermediate', 'marts', 'materialized', 'meta', 'clock'],
  application: ['marts', 'materialized', 'reports', 'meta', 'clock'],
};

/** The folders of src/ whose SQL the loaders' rule holds; any other folder's is held to the application's. */
export const TS_SQL_LOADERS: readonly string[] = ['extract', 'store', 'transform', 'metrics'];

/** Modules outside those folders that read past the application's rule on purpose, each with why. */
export const TS_SQL_EXEMPT: Readonly<Record<string, string>> = {
  'allocation/reader-rules.ts': "computes fct_cost_allocated's rows under a reader's own rules, as the refresh does",
};

const KIND_WORDS: Record<SqlObjectKind, string> = {
  raw: 'a raw table',
  meta: "one of gpuledger's _meta_ tables",
  materialized: 'a materialised table',
  staging: 'a staging view',
  intermediate: 'an intermediate view',
  marts: 'a mart',
  reports: 'a report view',
  clock: 'the report clock',
};

const PLURAL_WORDS: Record<SqlObjectKind, string> = {
  raw: 'raw tables',
  meta: '_meta_ tables',
  materialized: 'materialised tables (fct_*)',
  staging: 'staging views',
  intermediate: 'intermediate views (int_*)',
  marts: 'marts',
  reports: 'report views',
  clock: 'report_clock',
};

export interface SqlObjects {
  /** View names by the layer they live in. */
  views: ReadonlyMap<string, ViewLayer>;
  /** Macro names (sql/macros) and their files' text: a call reads what the body reads. */
  macros?: ReadonlyMap<string, string>;
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

/** SQL DuckDB's parser does not take: the layer check cannot read it, so it refuses it. */
export class SqlParseError extends Error {
  constructor(readonly parserMessage: string, sql: string) {
    super(`the SQL layer check cannot parse this SQL (Parser Error: ${parserMessage}): ${sql.slice(0, 120)}`);
  }
}

/** DuckDB's parse of one SELECT as JSON (`json_serialize_sql`): run on the store's connection or a scratch one. */
export type SerializeSql = (select: string) => Promise<string>;

// A view or macro file is `create [or replace] [temp] view|macro name[(params)] as [table] <body>`: the body is what
// reads; a scalar macro's body is an expression, parsed as `select <expression>`.
const HEADER = /^\s*create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?(view|macro)\s+(?:main\.)?[a-z_][a-z0-9_]*\s*(\([^)]*\))?\s+as\s+(table\s+)?/i;

function selectOf(sql: string): string {
  const code = codeOnly(sql).trim().replace(/;\s*$/, '');
  const m = HEADER.exec(code);
  if (!m) return code;
  const body = code.slice(m[0].length);
  return m[1]!.toLowerCase() === 'macro' && !m[3] ? `select ${body}` : body;
}

function collect(node: unknown, names: Set<string>, calls: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, names, calls);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as { type?: unknown; table_name?: unknown; schema_name?: unknown; function?: { function_name?: unknown } };
  // a name in another schema (a user's, information_schema) is none of the layers'
  const ours = n.schema_name === undefined || n.schema_name === '' || n.schema_name === 'main';
  if (n.type === 'BASE_TABLE' && typeof n.table_name === 'string' && ours) names.add(n.table_name.toLowerCase());
  if (n.type === 'TABLE_FUNCTION' && typeof n.function?.function_name === 'string') names.add(n.function.function_name.toLowerCase());
  // a scalar call: a scalar macro's body may read a table too
  const call = node as { class?: unknown; function_name?: unknown };
  if (call.class === 'FUNCTION' && typeof call.function_name === 'string') calls.add(call.function_name.toLowerCase());
  for (const v of Object.values(node)) collect(v, names, calls);
}

async function parse(sql: string, serialize: SerializeSql): Promise<{ relations: string[]; calls: string[] }> {
  const parsed = JSON.parse(await serialize(selectOf(sql))) as { error?: boolean; error_message?: string; statements?: unknown };
  if (parsed.error) throw new SqlParseError(parsed.error_message ?? 'parser error', selectOf(sql));
  const names = new Set<string>();
  const calls = new Set<string>();
  collect(parsed.statements, names, calls);
  return { relations: [...names].sort(), calls: [...calls].sort() };
}

/**
 * The relations a piece of SQL reads, as DuckDB's own parser sees them: every table, view and table function in any
 * FROM – comma joins, quoted names, subqueries and CTE bodies included (a CTE's own name is read too; it is no name of
 * ours, so the rule passes it). SQL the parser does not take is an error: a check that cannot read is no check.
 */
export async function readRelations(sql: string, serialize: SerializeSql): Promise<string[]> {
  return (await parse(sql, serialize)).relations;
}

/**
 * The relations a piece of SQL reads, a macro's reads counted as its caller's: each name with the macro it was read
 * through (the first one called, when a macro calls another), or undefined when the SQL names it itself.
 */
export async function relationsRead(sql: string, objects: SqlObjects, serialize: SerializeSql): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const expanded = new Set<string>();
  const visit = async (text: string, via: string | undefined): Promise<void> => {
    const { relations, calls } = await parse(text, serialize);
    for (const name of [...relations, ...calls]) {
      const body = objects.macros?.get(name);
      if (body !== undefined) {
        if (expanded.has(name)) continue;
        expanded.add(name);
        await visit(body, via ?? name);
      } else if (relations.includes(name) && !out.has(name)) out.set(name, via);
    }
  };
  await visit(sql, undefined);
  return out;
}

export interface LayerViolation {
  reference: string;
  kind: SqlObjectKind;
  /** The macro the reference was read through, if the SQL does not name it itself. */
  macro?: string;
  message: string;
}

/** The references of `sql` that its reader may not read, each with a sentence saying so and what to do instead. */
export async function layerViolations(sql: string, reader: SqlReader, objects: SqlObjects, serialize: SerializeSql): Promise<LayerViolation[]> {
  const allowed = SQL_LAYER_RULE[reader];
  const out: LayerViolation[] = [];
  for (const [name, macro] of [...(await relationsRead(sql, objects, serialize))].sort(([a], [b]) => a.localeCompare(b))) {
    const kind = kindOf(name, objects);
    if (kind === undefined || allowed.includes(kind)) continue;
    const through = macro === undefined ? '' : ` through the macro ${macro}`;
    out.push({
      reference: name,
      kind,
      ...(macro === undefined ? {} : { macro }),
      message: `reads ${name} (${KIND_WORDS[kind]})${through}, but ${readerWords(reader)} may read only ${allowed.map((k) => PLURAL_WORDS[k]).join(', ')} – ${advice(reader)}`,
    });
  }
  return out;
}

function readerWords(reader: SqlReader): string {
  switch (reader) {
    case 'staging': return 'staging';
    case 'intermediate': return 'intermediate views';
    case 'marts': return 'marts';
    case 'reports': return 'report views';
    case 'alerts': return 'alert rules';
    case 'definitions': return 'report definitions';
    case 'allocation': return 'allocation queries';
    case 'materialize': return 'refresh queries';
    case 'metrics': return 'metrics import queries';
    case 'loaders': return 'loading modules';
    case 'application': return 'SQL in TypeScript';
  }
}

function advice(reader: SqlReader): string {
  if (reader === 'staging') return 'stage the raw or _meta_ table itself and join in an intermediate view (sql/views/intermediate/)';
  if (reader === 'intermediate') return 'read what the mart or report view reads instead, or move this view up a layer';
  if (reader === 'marts') return 'put the logic in an intermediate view (sql/views/intermediate/) and read that';
  if (reader === 'reports') return 'put the logic in a mart (sql/views/marts/) and read that';
  if (reader === 'alerts' || reader === 'definitions') return 'read a report view (sql/views/reports/), adding one if needed';
  if (reader === 'application') return 'read a mart or report view (adding one if needed), or say in TS_SQL_EXEMPT why not';
  return 'read the layer below through its views';
}
