// Unit-cost rule (issue 14): the latest complete day of each metric and scope against the median of the weeks before
// it. A jump in cost per unit has two causes a reader must tell apart – the cost rose, or the volume fell – so the
// message names both movements against their own medians.
import type { UnitCostRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import { unitText } from '../../model/index.ts';
import type { Condition } from '../types.ts';

type Jump = {
  account: string;
  metric: string;
  scope: string;
  day: string;
  cost: string;
  quantity: string;
  unit_cost: string;
  estimated: boolean;
  baseline_days: number;
  median_unit_cost: string;
  median_cost: string;
  median_quantity: string;
  ratio: string;
};

/** "+40 %" / "−33 %" of a value against its median (display only: the decision was made in SQL on DECIMALs). */
function change(value: string, median: string): string {
  const pct = Math.round((Number(value) / Number(median) - 1) * 100);
  return `${pct >= 0 ? '+' : '−'}${Math.abs(pct)} %`;
}

function cause(j: Jump): string {
  const cost = Number(j.cost) / Number(j.median_cost);
  const volume = Number(j.quantity) / Number(j.median_quantity);
  if (cost >= 1 && volume < 1) return 'the cost rose and the volume fell';
  if (volume < 1) return 'the volume fell';
  return 'the cost rose';
}

export async function evaluateUnitCost(store: Store, rule: UnitCostRule): Promise<Condition[]> {
  const rows = await store.all<Jump>(readSqlFile('alerts', 'unit_cost_jumps'), {
    ratio: rule.ratio.toFixed(3),
    baseline_days: rule.baselineDays,
    min_cost: rule.minCost,
  });
  return rows.map((j) => {
    const scope = j.scope === '' ? 'the whole account' : j.scope;
    const ratio = Number(j.ratio);
    return {
      key: `unit_cost:${j.account}:${j.metric}:${j.scope}`,
      rule: 'unit_cost' as const,
      account: j.account,
      // a higher multiple is worse: announced again when it passes the next whole step of the threshold
      level: Math.max(1, Math.floor(ratio / rule.ratio)),
      severity: ratio >= 2 * rule.ratio ? ('critical' as const) : ('warning' as const),
      // a unit often costs cents or less: its cost reads in the unit the report shows it in (src/model/units.ts)
      title: `Unit cost: ${j.metric} for ${scope} cost ${unitText(j.unit_cost, 'usd_per_unit')} each on ${j.day}, ${unitText(j.ratio, 'ratio')}× its median – ${cause(j)}`,
      message:
        `${j.metric} for ${scope} (${j.account}) on ${j.day}: ${unitText(j.cost, 'usd', { micros: true })} ÷ ${unitText(j.quantity, 'quantity')} = ${unitText(j.unit_cost, 'usd_per_unit')} per unit, ` +
        `${unitText(j.ratio, 'ratio')}× the median ${unitText(j.median_unit_cost, 'usd_per_unit')} of the ${j.baseline_days} days before. ` +
        `Cost ${change(j.cost, j.median_cost)} against its median ${unitText(j.median_cost, 'usd', { micros: true })}, volume ${change(j.quantity, j.median_quantity)} against ${unitText(j.median_quantity, 'quantity')}` +
        (j.estimated ? ' (the quantity is an estimate).' : '.'),
      details: { ...j },
    };
  });
}
