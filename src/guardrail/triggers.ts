// Whether each guardrail's trigger fires, per account, from the report views the alerts read (rpt_budgets,
// rpt_runway, rpt_waste) – the figures a person sees in the report, so the reason a rule gives is the report's own.
// Amounts are compared as DECIMAL in DuckDB, never as doubles here.
import type { GuardrailTrigger } from '../config/guardrails.ts';
import type { Store } from '../store/database.ts';
import { unitText } from '../model/index.ts';

export interface Firing {
  account: string;
  /** The trigger's figure in words: "budget gpu-month actual $812.40 of $1,000.00 (81.2 %) ≥ 80 %". */
  figure: string;
  /** A waste trigger acts only on the resources its findings name (and what each costs a month). */
  resources?: Map<string, string>;
}

type Row = Record<string, string | null>;

async function budgetFirings(store: Store, t: Extract<GuardrailTrigger, { kind: 'budget' }>, accounts: readonly string[]): Promise<Firing[]> {
  const spent = t.on === 'actual' ? 'actual' : 'forecast';
  const rows = await store.all<Row>(
    `select account, amount::varchar as amount, ${spent}::varchar as spent, round(${spent} * 100 / nullif(amount, 0), 1)::varchar as pct
     from rpt_budgets
     where budget = $1 and ${spent} >= amount * $2::decimal(9,3) / 100`,
    [t.budget, t.thresholdPct.toFixed(3)],
  );
  const row = rows[0];
  if (!row) return [];
  const figure = `budget ${t.budget} ${t.on} ${unitText(row.spent!, 'usd', { micros: true })} of ${unitText(row.amount!, 'usd', { micros: true })} (${row.pct} %) ≥ ${t.thresholdPct} %`;
  // a budget over every account (account null) fires for each of them; one over an account, for that one
  return (row.account === null ? accounts : accounts.filter((a) => a === row.account)).map((account) => ({ account, figure }));
}

async function runwayFirings(store: Store, t: Extract<GuardrailTrigger, { kind: 'runway' }>): Promise<Firing[]> {
  const rows = await store.all<Row>(
    `select account, round(runway_hours, 1)::varchar as hours from rpt_runway where runway_hours < $1::double order by account`,
    [t.underHours],
  );
  return rows.map((r) => ({ account: r.account!, figure: `runway ${r.hours} h < ${t.underHours} h` }));
}

async function spendFirings(store: Store, t: Extract<GuardrailTrigger, { kind: 'spend-per-hour' }>): Promise<Firing[]> {
  const rows = await store.all<Row>(
    `select account, spend_per_hour::varchar as rate from rpt_runway where spend_per_hour > $1::decimal(18,2) order by account`,
    [t.ceiling],
  );
  return rows.map((r) => ({ account: r.account!, figure: `spend ${unitText(r.rate!, 'usd', { micros: true })}/h > ${unitText(t.ceiling, 'usd', { micros: true })}/h` }));
}

async function wasteFirings(store: Store, t: Extract<GuardrailTrigger, { kind: 'waste' }>): Promise<Firing[]> {
  const rows = await store.all<Row>(
    `select account, resource_id, monthly_cost::varchar as monthly from rpt_waste where kind = $1 and resource_id is not null order by account, resource_id`,
    [t.finding],
  );
  const byAccount = new Map<string, Map<string, string>>();
  for (const r of rows) {
    if (!byAccount.has(r.account!)) byAccount.set(r.account!, new Map());
    byAccount.get(r.account!)!.set(r.resource_id!, r.monthly!);
  }
  return [...byAccount].map(([account, resources]) => ({ account, figure: `${resources.size} ${t.finding} finding(s)`, resources }));
}

/** The accounts (of `accounts`) for which the trigger fires now, each with its figure. */
export async function firings(store: Store, trigger: GuardrailTrigger, accounts: readonly string[]): Promise<Firing[]> {
  const all =
    trigger.kind === 'budget' ? await budgetFirings(store, trigger, accounts)
    : trigger.kind === 'runway' ? await runwayFirings(store, trigger)
    : trigger.kind === 'spend-per-hour' ? await spendFirings(store, trigger)
    : await wasteFirings(store, trigger);
  return all.filter((f) => accounts.includes(f.account));
}

/** Each serverless endpoint's cost per hour over the last complete day (cost_daily), by account then id. */
export async function endpointHourlyCosts(store: Store): Promise<Map<string, string>> {
  const rows = await store.all<Row>(
    `select d.account, d.resource_id, (sum(d.amount) / 24)::decimal(18,6)::varchar as hourly
     from cost_daily as d
     inner join report_clock as c on d.day = c.as_of_date - 1
     where d.family = 'serverless' and d.resource_id is not null
     group by all`,
  );
  return new Map(rows.map((r) => [`${r.account}\u0000${r.resource_id}`, r.hourly!]));
}
