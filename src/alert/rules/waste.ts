// Waste rule: every rpt_waste finding that costs at least minMonthlyCost a month. A finding's id is stable, so it
// alerts once and resolves when the waste is gone (the endpoint scaled to zero, the volume deleted).
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import { unitText } from '../../model/index.ts';
import type { Condition } from '../types.ts';

type Finding = {
  account: string;
  finding_id: string;
  kind: string;
  family: string;
  resource_id: string;
  resource_name: string | null;
  monthly_cost: string;
  last_30_days_amount: string;
  reason: string;
}

const KIND_LABEL: Record<string, string> = {
  idle_min_workers: 'always-on Serverless workers',
  stopped_pod_volume: 'stopped pod still paying for its volume',
  unattached_volume: 'network volume attached to nothing',
  cheaper_cloud: 'GPU pod cheaper on COMMUNITY cloud',
};

export async function evaluateWaste(store: Store, minMonthlyCost: string): Promise<Condition[]> {
  const rows = await store.all<Finding>(readSqlFile('alerts', 'waste_findings'), { min_monthly_cost: minMonthlyCost });
  return rows.map((f) => {
    const name = f.resource_name ?? f.resource_id;
    return {
      key: `waste:${f.finding_id}`,
      rule: 'waste' as const,
      account: f.account,
      level: 1,
      severity: Number(f.monthly_cost) >= 100 ? ('warning' as const) : ('info' as const),
      title:
        `Waste: ${name} – ${KIND_LABEL[f.kind] ?? f.kind}, ${unitText(f.monthly_cost, 'usd', { micros: true })}/month`,
      message: `${name} (${f.family} ${f.resource_id}, ${f.account}): ${f.reason} About ${unitText(f.monthly_cost, 'usd', { micros: true })} a month; ${unitText(f.last_30_days_amount, 'usd', { micros: true })} in the last 30 days.`,
      details: { ...f },
    };
  });
}
