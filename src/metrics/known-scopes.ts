// Is there cost under a metric's scope? A scope naming an endpoint, template or GPU type the account's cost never
// carries – a typo, an endpoint of another account – would divide $0 and show a unit cost of $0 every day (issue 26
// §7), so it is refused at import, naming the close match or the known values. The known values are those of the
// account's cost rows (sql/metrics/scope_values.sql, what int_scope_cost_daily matches against) and, for an allocation
// category, the values the config can give. Before the first sync nothing is known and nothing is checked.
import type { Config } from '../config/schema.ts';
import type { Store } from '../store/database.ts';
import { readSqlFile } from '../transform/sql-files.ts';
import { MetricsFileError, type MetricRow } from './metric-rows.ts';
import { DIMENSIONS } from '../model/semantic.ts';

/** kind → values, per account. */
export type ScopeValues = Map<string, Map<string, Set<string>>>;

export async function readScopeValues(store: Store): Promise<ScopeValues> {
  const rows = await store.all<{ account: string; kind: string; value: string }>(readSqlFile('metrics', 'scope_values'));
  const out: ScopeValues = new Map();
  for (const r of rows) {
    const kinds = out.get(r.account) ?? new Map<string, Set<string>>();
    out.set(r.account, kinds);
    const values = kinds.get(r.kind) ?? new Set<string>();
    kinds.set(r.kind, values);
    values.add(r.value);
  }
  return out;
}

/** Every value an allocation category can give cost: its default, its rules' values and its splits' targets. */
function categoryValues(config: Config, category: string): Set<string> | undefined {
  const def = config.allocation.categories[category];
  if (!def) return undefined;
  return new Set([def.default, ...def.rules.map((r) => r.value), ...def.split.flatMap((s) => s.to)]);
}

/** Edit distance, for "did you mean": names are short, so the plain table is enough. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

const MAX_LISTED = 12;

function suggestion(value: string, known: readonly string[]): string {
  const lower = value.toLowerCase();
  const near = known
    .map((k) => ({ k, d: k.toLowerCase() === lower ? 0 : distance(lower, k.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(value.length / 4)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  if (near.length > 0) return `did you mean '${near[0]!.k}'?`;
  const sorted = [...known].sort();
  const listed = sorted.slice(0, MAX_LISTED).map((k) => `'${k}'`).join(', ');
  return sorted.length === 0 ? 'it has none' : `known: ${listed}${sorted.length > MAX_LISTED ? ` and ${sorted.length - MAX_LISTED} more` : ''}`;
}

const KIND_WORDS: Record<string, string> = { endpoint: 'Serverless endpoint', template: DIMENSIONS.template.word, gpuType: DIMENSIONS.gpu_type.word };

/**
 * Throw MetricsFileError `FILE line N, field scope: …` for the first row whose scope names nothing the account's cost
 * carries. `accountOf` gives the account a row is imported into; `values` is undefined before the first sync.
 */
export function checkScopesKnown(file: string, unit: string, rows: readonly MetricRow[], accountOf: (r: MetricRow) => string, config: Config, values: ScopeValues | undefined): void {
  for (const r of rows) {
    if (r.scope === '' || r.scope.startsWith('family:')) continue; // the account, or a family checked by scope.ts
    const colon = r.scope.indexOf(':');
    const kind = r.scope.slice(0, colon);
    const value = r.scope.slice(colon + 1);
    const account = accountOf(r);
    const builtIn = KIND_WORDS[kind];
    const known = builtIn ? values?.get(account)?.get(kind) : categoryValues(config, kind);
    if (builtIn && values === undefined) continue;
    if (known?.has(value)) continue;
    const what = builtIn ? `no ${builtIn} '${value}' in the cost of account '${account}'` : `allocation category '${kind}' gives no value '${value}'`;
    throw new MetricsFileError(`${file} ${unit} ${r.line}, field scope: ${what}, so its unit cost would divide $0; ${suggestion(value, [...(known ?? [])])}`);
  }
}
