// The checks of the allocation section that a user needs as one line with the category, the rule's 1-based index and
// the key: zod's own paths count from 0 and stop at the first shape error, so these run on the raw input before it.
// Only what is recognisably shaped is checked here; anything else is left to the zod schema's messages.

export const MATCH_KEYS = ['account', 'family', 'component', 'resource', 'template', 'endpoint', 'gpuType', 'dataCenter'] as const;
export type MatchKey = (typeof MATCH_KEYS)[number];

const RULE_KEYS = ['value', 'match'];
const SPLIT_KEYS = ['from', 'to', 'by'];

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const quoted = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

function checkRule(where: string, rule: unknown): string | undefined {
  if (!isObject(rule)) return undefined;
  const extra = Object.keys(rule).find((k) => !RULE_KEYS.includes(k));
  if (extra) return `${where}: unknown key '${extra}' (accepted: value, match)`;
  if (!isObject(rule.match)) return undefined;
  const keys = Object.keys(rule.match);
  if (keys.length === 0) return `${where}: match names no key (accepted: ${MATCH_KEYS.join(', ')}); use the category's default for cost no rule matches`;
  for (const key of keys) {
    if (!(MATCH_KEYS as readonly string[]).includes(key)) return `${where} match key '${key}': unknown key (accepted: ${MATCH_KEYS.join(', ')})`;
    const value = rule.match[key];
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0 || list.some((g) => g === '')) return `${where} match key '${key}': empty glob (write a pattern such as "sdxl-*", or leave the key out)`;
  }
  return undefined;
}

/** Percentages as integer millionths of a percent, so 33.3333 + 66.6667 sums exactly. */
const millionths = (p: number) => Math.round(p * 1_000_000);

function checkSplits(category: string, values: Set<string>, splits: unknown[]): string | undefined {
  const from = new Map<string, number>();
  const edges = new Map<string, string[]>();
  for (const [i, split] of splits.entries()) {
    const where = `category '${category}' split ${i + 1}`;
    if (!isObject(split)) continue;
    const extra = Object.keys(split).find((k) => !SPLIT_KEYS.includes(k));
    if (extra) return `${where}: unknown key '${extra}' (accepted: from, to, by)`;
    if (typeof split.from !== 'string' || !Array.isArray(split.to)) continue;
    const to: unknown[] = split.to;
    const known = [...values].sort();
    if (!values.has(split.from)) return `${where} key 'from': unknown value '${split.from}' (values of the rules and default: ${quoted(known)})`;
    for (const to of split.to) {
      if (typeof to === 'string' && !values.has(to)) return `${where} key 'to': unknown value '${to}' (values of the rules and default: ${quoted(known)})`;
    }
    if (split.to.includes(split.from)) return `${where} key 'to': '${split.from}' is split onto itself`;
    if (new Set(split.to).size !== split.to.length) return `${where} key 'to': a value is listed twice`;
    if (from.has(split.from)) return `${where} key 'from': '${split.from}' is already split by split ${from.get(split.from)! + 1}`;
    from.set(split.from, i);
    edges.set(split.from, split.to.filter((t): t is string => typeof t === 'string'));
    if (typeof split.by === 'string' && split.by !== 'proportional' && split.by !== 'even') {
      return `${where} key 'by': unknown method '${split.by}' (accepted: "proportional", "even" or {value: percent, …})`;
    }
    if (isObject(split.by)) {
      const keys = Object.keys(split.by);
      const missing = to.find((t) => !keys.includes(t as string));
      const stray = keys.find((k) => !to.includes(k));
      if (missing !== undefined || stray !== undefined) return `${where} key 'by': give a percentage for exactly the 'to' values (${quoted(to as string[])})`;
      const notNumber = Object.entries(split.by).find(([, p]) => typeof p !== 'number' || !Number.isFinite(p) || p <= 0);
      if (notNumber) return `${where} key 'by': the percentage of '${notNumber[0]}' must be a number above 0, got ${JSON.stringify(notNumber[1])}`;
      const sum = Object.values(split.by).reduce<number>((s, p) => s + millionths(p as number), 0);
      if (sum !== 100_000_000) return `${where} key 'by': percentages sum to ${sum / 1_000_000}, not 100`;
    }
  }
  return checkChains(category, edges, from);
}

/** A cycle among the splits (a → b → a) as the list of values, or undefined. */
function findCycle(edges: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (value: string, path: string[]): string[] | undefined => {
    if (path.includes(value)) return [...path.slice(path.indexOf(value)), value];
    if (done.has(value)) return undefined;
    for (const next of edges.get(value) ?? []) {
      const cycle = visit(next, [...path, value]);
      if (cycle) return cycle;
    }
    done.add(value);
    return undefined;
  };
  for (const start of edges.keys()) {
    const cycle = visit(start, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** A split's targets are allocated from direct cost only, so a value may not be both moved and receive moved cost. */
function checkChains(category: string, edges: Map<string, string[]>, from: Map<string, number>): string | undefined {
  const cycle = findCycle(edges);
  if (cycle) return `category '${category}' split ${from.get(cycle[0]!)! + 1} key 'to': splits form a cycle (${cycle.join(' → ')})`;
  for (const [source, targets] of edges) {
    const chained = targets.find((t) => edges.has(t));
    if (chained) {
      return `category '${category}' split ${from.get(source)! + 1} key 'to': '${chained}' is itself split by split ${from.get(chained)! + 1}; split '${source}' onto the final values instead`;
    }
  }
  return undefined;
}

/** What a category may be called: it becomes a column value and a scope kind (`team:imaging`). */
export const CATEGORY_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** The first problem of the raw allocation section as one line, or undefined. */
export function checkAllocation(raw: unknown): string | undefined {
  if (!isObject(raw) || !isObject(raw.categories)) return undefined;
  // Object.keys sees a JSON key "__proto__" that a record schema would silently drop: a name is checked here
  const badName = Object.keys(raw.categories).find((name) => !CATEGORY_NAME.test(name));
  if (badName !== undefined) return `category '${badName}': not a category name (a letter, then letters, digits, "_" or "-")`;
  for (const [category, def] of Object.entries(raw.categories)) {
    if (!isObject(def)) continue;
    const rules = Array.isArray(def.rules) ? def.rules : [];
    for (const [i, rule] of rules.entries()) {
      const problem = checkRule(`category '${category}' rule ${i + 1}`, rule);
      if (problem) return problem;
    }
    const values = new Set<string>([typeof def.default === 'string' ? def.default : 'unallocated']);
    for (const rule of rules) if (isObject(rule) && typeof rule.value === 'string') values.add(rule.value);
    const problem = checkSplits(category, values, Array.isArray(def.split) ? def.split : []);
    if (problem) return problem;
  }
  return undefined;
}
