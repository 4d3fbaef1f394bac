// Data-quality rule: numbers that cannot be trusted are an alert too – the aggregate route disagreeing with a family
// route, a source whose data is stale, and a sync that failed or finished partially.
import { timestampTZValue } from '../../util/duckdb-api.ts';
import type { AlertsConfig } from '../../config/alerts.ts';
import type { Store } from '../../store/database.ts';
import { readSqlFile } from '../../transform/sql-files.ts';
import { unitText } from '../../model/index.ts';
import type { Condition } from '../types.ts';

type DataQualityRule = AlertsConfig['dataQuality'];

type Difference = {
  account: string;
  family: string;
  buckets: string | number;
  largest_difference: string;
  net_difference: string;
  worst_bucket_start: string;
  worst_bucket_size: string;
}

type Stale = {
  account: string;
  source: string;
  bucket_size: string | null;
  loaded_through: string | null;
  complete_through: string | null;
  last_success_at: string | null;
  last_run_status: string | null;
  reason: string;
}

type LastSync = {
  run_id: string;
  command: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  errors: string | null;
}

function errorSummary(errors: string | null): string {
  if (!errors) return '';
  try {
    const list = JSON.parse(errors) as { account?: string; source?: string; message?: string }[];
    return list
      .slice(0, 5)
      .map((e) => [e.account, e.source].filter(Boolean).join(' ') + (e.message ? `: ${e.message}` : ''))
      .join('; ');
  } catch {
    return errors;
  }
}

export async function evaluateDataQuality(store: Store, rule: DataQualityRule, now: Date): Promise<Condition[]> {
  const conditions: Condition[] = [];
  const nowValue = timestampTZValue(BigInt(now.getTime()) * 1000n);

  const differences = await store.all<Difference>(readSqlFile('alerts', 'data_quality_reconciliation'), {
    days: rule.reconciliationDays,
    tolerance: rule.reconciliationTolerance,
  });
  for (const d of differences) {
    conditions.push({
      key: `data_quality:reconciliation:${d.account}:${d.family}`,
      rule: 'data_quality',
      account: d.account,
      level: 1,
      severity: 'warning',
      title: `Reconciliation: ${d.family} differs from the aggregate route in ${d.buckets} bucket(s)`,
      message:
        `${d.account} ${d.family}: the aggregate route and the ${d.family} route differ by more than ` +
        `${unitText(rule.reconciliationTolerance, 'usd', { micros: true })} in ${d.buckets} bucket(s) of the last ${rule.reconciliationDays} days ` +
        `(largest ${unitText(d.largest_difference, 'usd', { micros: true })} at the ${d.worst_bucket_size} from ${d.worst_bucket_start}; net ${unitText(d.net_difference, 'usd', { signed: true, micros: true })}). See rpt_reconciliation.`,
      details: { ...d },
    });
  }

  const stale = await store.all<Stale>(readSqlFile('alerts', 'data_quality_freshness'), { now: nowValue, stale_hours: rule.staleAfterHours });
  for (const s of stale) {
    const what = `${s.source}${s.bucket_size ? ` (${s.bucket_size})` : ''}`;
    conditions.push({
      key: `data_quality:stale:${s.account}:${s.source}:${s.bucket_size ?? ''}`,
      rule: 'data_quality',
      account: s.account,
      level: 1,
      severity: 'warning',
      title: `Stale data: ${what} of ${s.account}`,
      message:
        `${s.account} ${what}: ${s.reason === 'no successful sync' ? `no successful sync in the last ${rule.staleAfterHours} hours` : `its data falls more than ${rule.staleAfterHours} hours behind the other sources`} ` +
        `(data through ${s.loaded_through ?? 'never'}, complete through ${s.complete_through ?? 'never'}, last success ${s.last_success_at ?? 'never'}${s.last_run_status ? `, last run ${s.last_run_status}` : ''}).`,
      details: { ...s },
    });
  }

  if (rule.syncFailures) {
    const last = (await store.all<LastSync>(readSqlFile('alerts', 'data_quality_last_sync'), { now: nowValue }))[0];
    if (last && last.status !== 'success') {
      const summary = errorSummary(last.errors);
      conditions.push({
        key: 'data_quality:sync',
        rule: 'data_quality',
        account: '*',
        level: last.status === 'partial' ? 1 : 2,
        severity: last.status === 'partial' ? 'warning' : 'critical',
        title: `Sync ${last.status}: the ${last.command} started ${last.started_at}`,
        message: `The latest ${last.command} (run ${last.run_id}, started ${last.started_at}) ended ${last.status}${summary ? `: ${summary}` : ''}. Reports may miss recent spend until a sync succeeds.`,
        details: { ...last },
      });
    }
  }
  return conditions;
}
