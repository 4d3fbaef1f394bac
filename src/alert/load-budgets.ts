// The config's budgets (alerts.budgets) → _meta_budgets (sql/schema/023_budgets.sql), so rpt_budgets shows them to
// SQL users, the report and serve (issue 39 §1). The same two halves as the allocation rules (load-rules.ts,
// reader-rules.ts): a writing session stores the config's budgets; a reader whose config says otherwise answers with
// its own in a temp table of the same name – DuckDB resolves temp before main, also inside views – and never writes.
import type { BudgetRule } from '../config/alerts.ts';
import type { Store } from '../store/database.ts';

type Value = string | null;
const COLUMNS = 'name, period, amount::varchar, account, family, template, endpoint, gpu_type, category, value, thresholds::varchar';

/** A config amount ("2500", "2500.5": the schema's digits, up to 2 decimals) as DuckDB writes a DECIMAL(18,2), never via a double. */
function centsText(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/** Each budget as the table's row (thresholds as DuckDB writes a DOUBLE[]: "[50.0, 80.0, 100.0]"). */
function budgetRows(budgets: readonly BudgetRule[]): Value[][] {
  return budgets.map((b) => [
    b.name,
    b.period,
    centsText(b.amount),
    b.account ?? null,
    b.scope.family ?? null,
    b.scope.template ?? null,
    b.scope.endpoint ?? null,
    b.scope.gpuType ?? null,
    b.scope.category ?? null,
    b.scope.value ?? null,
    `[${b.thresholds.map((t) => (Number.isInteger(t) ? `${t}.0` : String(t))).join(', ')}]`,
  ]);
}

const sorted = (rows: Value[][]) => rows.map((r) => JSON.stringify(r)).sort();

/** Whether `table` (main or temp) already holds exactly these budgets. */
async function holds(store: Store, budgets: readonly BudgetRule[], table = '_meta_budgets'): Promise<boolean> {
  const have = (await store.all(`select ${COLUMNS} from ${table}`)).map((r) => Object.values(r) as Value[]);
  return JSON.stringify(sorted(have)) === JSON.stringify(sorted(budgetRows(budgets)));
}

async function insert(store: Store, table: string, budgets: readonly BudgetRule[], loadedAt: 'now()' | 'null'): Promise<void> {
  // a handful of rows from the config file: parameterised inserts are the simple and sufficient tool here
  for (const row of budgetRows(budgets)) {
    await store.run(`insert into ${table} values ($1, $2, $3::decimal(18,2), $4, $5, $6, $7, $8, $9, $10, $11::double[], ${loadedAt})`, row);
  }
}

/** Replace the stored budgets with the config's in one transaction; unchanged budgets are left as they are. */
export async function loadBudgets(store: Store, budgets: readonly BudgetRule[]): Promise<void> {
  if (await holds(store, budgets)) return;
  await store.transaction(async () => {
    await store.run('delete from _meta_budgets');
    await insert(store, '_meta_budgets', budgets, 'now()');
  });
}

/** For a writing session's `prepare`: store the config's budgets before the views read them. */
export function storingBudgets(budgets: readonly BudgetRule[]): (store: Store) => Promise<void> {
  return (store) => loadBudgets(store, budgets);
}

/** Make a read-only `store` answer with `budgets`; the returned function undoes it. */
export async function answerWithBudgets(store: Store, budgets: readonly BudgetRule[]): Promise<() => Promise<void>> {
  if (await holds(store, budgets)) return async () => {};
  const undo = async () => {
    await store.run('drop table if exists temp.main._meta_budgets');
  };
  try {
    await store.run('create temp table _meta_budgets as select * from main._meta_budgets limit 0');
    // never written to the database: no load time
    await insert(store, 'temp.main._meta_budgets', budgets, 'null');
  } catch (e) {
    await undo();
    throw e;
  }
  return undo;
}

/** Run `fn` with a read-only `store` answering with `budgets` (answerWithBudgets), undone afterwards. */
export async function withBudgets<T>(store: Store, budgets: readonly BudgetRule[], fn: (store: Store) => Promise<T>): Promise<T> {
  const undo = await answerWithBudgets(store, budgets);
  try {
    return await fn(store);
  } finally {
    await undo();
  }
}
