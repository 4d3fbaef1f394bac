// Runway rule (balance-and-queue.md §2): the prepaid balance decides what keeps running. Three conditions per
// account, each keyed on its own so each alerts, escalates and resolves through the usual state:
// - runway: balance ÷ current spend under warningHours (warning) or criticalHours (critical), naming what $0 would
//   hurt – running pods without a network volume lose their data, network volumes may be deleted later;
// - deploy floor: a balance under one hour of current spend – no new pod can start (402 Insufficient balance);
// - spend limit: current spend at spendLimitPct % of the hourly limit – new resources will be refused.
// A post-paid (invoiced) account (rpt_runway.billing_model, from the config or detected: int_runway_billing_model)
// gets none of them: its balance reads $0 or below by design and nothing is suspended, so a runway alert there
// would page every night for nothing. For a prepaid one, $0 is a deadline: the platform stops every running pod
// then and deletes those without a network volume with their data, with no grace period documented.
import type { RunwayRule } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import { decimalStringToMicros } from '../../util/decimal.ts';
import { unitText } from '../../model/index.ts';
import type { Condition } from '../types.ts';

type RunwayRow = {
  account: string;
  observed_at: string;
  balance: string;
  spend_per_hour: string;
  spend_limit_per_hour: string;
  runway_hours: string | null;
  runs_out_at: string | null;
  storage_only_per_hour: string;
  storage_runway_hours: string | null;
  spend_limit_used_pct: string | null;
  estimated: boolean;
  billed_per_hour_24h: string | null;
  runway_hours_at_billed_rate: string | null;
  billing_model: 'prepaid' | 'postpaid';
  billing_basis: 'config' | 'detected' | 'assumed';
  billing_evidence: string;
  month_to_date: string;
};

/** What $0 means for a prepaid account (balance-and-queue.md §2): the deletion is at $0, not some time after. */
export const AT_ZERO =
  'every running pod stops and pods without a network volume are deleted with their data – the platform documents no grace period (balance-and-queue.md §2)';

type AtRisk = { resource_kind: string; resource_id: string; resource_name: string | null; risk: string; reason: string };

/** "about 29 hours", "about 61 hours (2.5 days)". */
export function hoursText(hours: number): string {
  const rounded = Math.round(hours);
  const text = `about ${rounded} hour${rounded === 1 ? '' : 's'}`;
  return hours >= 48 ? `${text} (${(hours / 24).toFixed(1)} days)` : text;
}

function atRiskText(rows: AtRisk[], limit: number): string {
  const name = (r: AtRisk) => (r.resource_name ? `${r.resource_name} (${r.resource_id})` : r.resource_id);
  const lost = rows.filter((r) => r.risk === 'lost');
  const volumes = rows.filter((r) => r.risk === 'at_risk');
  const parts: string[] = [];
  const list = (items: AtRisk[]) => items.slice(0, limit).map(name).join(', ') + (items.length > limit ? ` and ${items.length - limit} more` : '');
  if (lost.length > 0) parts.push(`${lost.length} running pod(s) without a network volume would be terminated with their data: ${list(lost)}`);
  if (volumes.length > 0) parts.push(`${volumes.length} network volume(s) keep billing and may eventually be deleted: ${list(volumes)}`);
  return parts.length > 0 ? ` At $0: ${parts.join('; ')}.` : '';
}

export async function evaluateRunway(store: Store, rule: RunwayRule): Promise<Condition[]> {
  const rows = await store.all<RunwayRow>(readSqlFile('alerts', 'runway'));
  const found: Condition[] = [];
  for (const r of rows) {
    if (r.billing_model === 'postpaid') continue;
    const estimate = r.estimated ? ' (estimated: the balance source did not answer; last known balance less billing since)' : '';
    const perHour = (v: string) => unitText(v, 'usd_per_hour');
    const burn = `${unitText(r.balance, 'usd', { micros: true })} at ${perHour(r.spend_per_hour)}`;
    const billed = r.billed_per_hour_24h === null ? '' : ` The last full day billed ${perHour(r.billed_per_hour_24h)}.`;
    const details = { ...r, rule: { warningHours: rule.warningHours, criticalHours: rule.criticalHours, spendLimitPct: rule.spendLimitPct } };
    const hours = r.runway_hours === null ? null : Number(r.runway_hours);
    if (hours !== null && hours < rule.warningHours) {
      const critical = hours < rule.criticalHours;
      // runway_hours is 0 for a balance at or below $0 (already out) and null when nothing is spent (rpt_runway)
      const out = decimalStringToMicros(r.balance) <= 0n;
      const atRisk = await store.all<AtRisk>(readSqlFile('alerts', 'runway_at_risk'), { account: r.account });
      // an account gpuledger only assumes is prepaid, at $0 on its first sync, may be invoiced: say how to tell it
      const maybeInvoiced =
        out && r.billing_basis === 'assumed'
          ? ` If ${r.account} is invoiced (post-paid), set "billing": "postpaid" on it in the config; a second sync that sees pods billed with the balance still at or below $0 also shows it (${r.billing_evidence}).`
          : '';
      const deadline = out
        ? ` The balance reached $0 by ${r.observed_at}: at $0 ${AT_ZERO}.`
        : ` $0 is the deadline: around ${r.runs_out_at} ${AT_ZERO}; network volumes keep billing and may be deleted later.`;
      found.push({
        key: `runway:${r.account}`,
        rule: 'runway',
        account: r.account,
        level: critical ? 2 : 1,
        severity: critical ? 'critical' : 'warning',
        title: out
          ? `Runway: ${r.account} has run out of credit (balance ${unitText(r.balance, 'usd', { micros: true })})${r.estimated ? ', estimated' : ''}`
          : `Runway: ${r.account} has ${hoursText(hours)} of credit left (${burn})${r.estimated ? ', estimated' : ''}; $0 around ${r.runs_out_at}`,
        message:
          (out
            ? `${r.account}: balance ${unitText(r.balance, 'usd', { micros: true })} as of ${r.observed_at}${estimate} has run out at the current ${perHour(r.spend_per_hour)}.`
            : `${r.account}: balance ${unitText(r.balance, 'usd', { micros: true })} as of ${r.observed_at}${estimate} runs out around ${r.runs_out_at} at the current ` +
              `${perHour(r.spend_per_hour)} (runway ${r.runway_hours === null ? '–' : unitText(r.runway_hours, 'hours')}, under the ${critical ? rule.criticalHours : rule.warningHours} h threshold).`) +
          deadline +
          billed +
          ` Storage alone bills ${perHour(r.storage_only_per_hour)} after pods stop.` +
          atRiskText(atRisk, rule.listResources) +
          (out ? ' Top up the balance to start pods again.' : ` Top up before ${r.runs_out_at}, or stop resources.`) +
          maybeInvoiced,
        details: { ...details, at_risk: atRisk.slice(0, 100) },
      });
    }
    const balance = decimalStringToMicros(r.balance);
    const hour = decimalStringToMicros(r.spend_per_hour);
    if (hour > 0n && balance < hour) {
      found.push({
        key: `runway:deploy-floor:${r.account}`,
        rule: 'runway',
        account: r.account,
        level: 1,
        severity: 'critical',
        title: `Balance under one hour of spend: ${r.account} cannot start new pods (${burn})`,
        message: `${r.account}: balance ${unitText(r.balance, 'usd', { micros: true })}${estimate} is less than one hour of the current ${perHour(r.spend_per_hour)}; the platform refuses a new pod without an hour of credit (402 Insufficient balance).`,
        details,
      });
    }
    const usedPct = r.spend_limit_used_pct === null ? null : Number(r.spend_limit_used_pct);
    if (usedPct !== null && usedPct >= rule.spendLimitPct) {
      found.push({
        key: `runway:spend-limit:${r.account}`,
        rule: 'runway',
        account: r.account,
        level: usedPct >= 100 ? 2 : 1,
        severity: 'warning',
        title: `Spend limit: ${r.account} spends ${perHour(r.spend_per_hour)}, ${unitText(r.spend_limit_used_pct!, 'percent')} of its ${perHour(r.spend_limit_per_hour)} limit`,
        message: `${r.account}: current spend ${perHour(r.spend_per_hour)} is ${unitText(r.spend_limit_used_pct!, 'percent')} of the hourly spend limit ${perHour(r.spend_limit_per_hour)}; the platform refuses new resources that would take spend above it. Ask support to raise the limit or stop resources.`,
        details,
      });
    }
  }
  return found;
}
