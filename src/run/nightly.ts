// The nightly job: sync → views → (the guardrail plan, recorded for the report) → report → alerts →
// guardrails (when configured: the automatic rules carried out, the manual proposals listed) → export (when
// export.postgres is configured) → email. Each step runs even when an earlier one partly failed (yesterday's data
// still deserves a workbook and alerts), and the job ends with one summary and the exit code of DESIGN.md: 0 all
// went well, 3 some step failed, 1 nothing useful could be done.
import type { Config } from '../config/schema.ts';
import { pendingText, runAlerts, type AlertsResult } from '../alert/index.ts';
import type { ResolvedAccount } from '../extract/accounts.ts';
import { unitText } from '../model/index.ts';
import { createProgress } from '../extract/progress.ts';
import { runSync, type SyncResult } from '../extract/sync.ts';
import { deliverReport, renderReportFormats, type DeliveryResult, type RenderedHtml, type RenderedReport } from '../report/index.ts';
import { acquireSyncLock, describeWait } from '../store/lock.ts';
import { withRulesReader } from '../allocation/reader-rules.ts';
import { SESSION_WAIT_MS, writeSessions } from '../store/shared-database.ts';
import { EXIT, errorMessage, isGpuledgerError, type ExitCode } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { displayPath } from '../util/display-path.ts';
import { storingConfig } from '../alert/store-config.ts';
import { withBudgets } from '../alert/load-budgets.ts';
import { recordPlanBeforeReport, runGuardrailsStep, type GuardrailsStep } from './guardrails-step.ts';

export interface NightlyOptions {
  config: Config;
  dbPath: string;
  accounts: readonly ResolvedAccount[];
  log: Logger;
  /** Report definition to render (default nightly). */
  report?: string;
  outDir?: string;
  /** Email the workbook when the report has recipients and SMTP is configured (default true). */
  email?: boolean;
  signal?: AbortSignal;
  waitMs?: number;
  /** Client tuning for tests and the demo. */
  client?: { initialRatePerSecond?: number };
}

export interface StepOutcome {
  step: 'sync' | 'report' | 'alerts' | 'guardrails' | 'export' | 'email';
  status: 'ok' | 'partial' | 'failed' | 'skipped';
  detail: string;
}

export interface NightlyResult {
  steps: StepOutcome[];
  sync?: SyncResult;
  workbook?: RenderedReport;
  /** The HTML page written beside the workbook, when the report's formats include html. */
  html?: RenderedHtml;
  alerts?: AlertsResult;
  guardrails?: GuardrailsStep;
  delivery?: DeliveryResult;
  exitCode: ExitCode;
}

function wantsEmail(config: Config, report: string): boolean {
  return Boolean(config.smtp) && (config.reports.delivery[report]?.recipients.length ?? 0) > 0;
}

export async function runNightly(options: NightlyOptions): Promise<NightlyResult> {
  const { config, log } = options;
  const report = options.report ?? 'nightly';
  const outDir = options.outDir ?? config.outDir;
  const result: NightlyResult = { steps: [], exitCode: EXIT.ok };
  const step = (outcome: StepOutcome) => {
    result.steps.push(outcome);
    const line = `${outcome.step}: ${outcome.status} – ${outcome.detail}`;
    if (outcome.status === 'failed') log.error(line);
    else if (outcome.status === 'partial') log.warn(line);
    else log.info(line);
  };

  // one nightly run or sync at a time; the database is held only in short writing sessions, and the workbook is
  // rendered from the published copy, so readers never wait for the job
  const lock = await acquireSyncLock(options.dbPath, { command: 'run', waitMs: options.waitMs, onWait: (m) => log.info(m) });
  const waited = describeWait(lock, 'its run');
  if (waited) log.info(waited);
  const writer = { dbPath: options.dbPath, command: 'run', waitMs: Math.max(options.waitMs ?? 0, SESSION_WAIT_MS), log, prepare: storingConfig(config) };
  const steps = async (): Promise<void> => {
    try {
      const sync = await runSync({
        sessions: writeSessions(writer),
        config,
        accounts: options.accounts,
        log: log.child('sync'),
        command: 'run',
        args: 'run',
        signal: options.signal,
        progress: createProgress(log.child('sync')),
        client: options.client,
      });
      result.sync = sync;
      const failed = sync.errors.map((e) => `${e.account} ${e.source}`).join(', ');
      step({
        step: 'sync',
        status: sync.status === 'success' ? 'ok' : sync.status === 'partial' ? 'partial' : 'failed',
        detail: `${unitText(sync.records, 'count')} records in ${sync.requests} requests${failed ? `; failed: ${failed}` : ''}`,
      });
    } catch (e) {
      // a rejected key or a broken config: nothing below can be trusted to be current, but the store may hold
      // earlier data, so the workbook and alerts still run – and the job says plainly what failed
      if (isGpuledgerError(e) && e.exitCode === EXIT.usage) result.exitCode = EXIT.usage;
      step({ step: 'sync', status: 'failed', detail: errorMessage(e) });
    }
    if (options.signal?.aborted) return;

    if (config.guardrails.length > 0) {
      // the proposals of this night, for the report and its email (reads of the platform only); without them the
      // report shows the last plan recorded, and says when it was made
      try {
        await recordPlanBeforeReport({ config, dbPath: options.dbPath, accounts: options.accounts, sessions: writeSessions({ ...writer, applyViews: false }), log: log.child('guardrails'), client: options.client, signal: options.signal });
      } catch (e) {
        log.warn(`guardrails: the plan before the report failed (${errorMessage(e)}); the report shows the last plan recorded`);
      }
    }
    if (options.signal?.aborted) return;

    try {
      // the workbook always (it is what the email carries), the HTML page beside it when the definition or the config asks
      const rendered = await withRulesReader(options.dbPath, config.allocation, (reader) =>
        withBudgets(reader, config.alerts.budgets, (store) =>
          renderReportFormats({ store, config, report, outDir: options.outDir, logger: log.child('report'), ensure: ['xlsx'] }),
        ),
      );
      const workbook = rendered.workbook!;
      result.workbook = workbook;
      result.html = rendered.html;
      const kb = (f: { path: string; bytes: number }) => `${displayPath(f.path)} (${(f.bytes / 1024).toFixed(0)} KB)`;
      step({ step: 'report', status: 'ok', detail: rendered.html ? `${kb(workbook)} and ${kb(rendered.html)}` : kb(workbook) });
    } catch (e) {
      step({ step: 'report', status: 'failed', detail: errorMessage(e) });
    }
    if (options.signal?.aborted) return;

    try {
      // short sessions: the database is not held while webhooks and SMTP are reached; a stop lets the deliveries in
      // flight finish and starts none (src/alert/index.ts)
      const alerts = await runAlerts({
        sessions: writeSessions(writer),
        dbPath: options.dbPath,
        waitMs: writer.waitMs,
        signal: options.signal,
        config,
        outDir,
        log: log.child('alerts'),
      });
      result.alerts = alerts;
      const fired = alerts.events.length;
      // "0 alert events" alone read as "all clear" on a second run while seven alerts were still firing (issue 38): a
      // condition announced before and unchanged makes no event, so the conditions true now are counted apart
      const announced = new Set(alerts.events.map((e) => e.key));
      const unchanged = alerts.conditions.filter((c) => !announced.has(c.key)).length;
      step({
        step: 'alerts',
        status: alerts.failedChannels.length > 0 || alerts.failedRules.length > 0 || alerts.pending.length > 0 ? 'partial' : 'ok',
        detail:
          `${fired} alert event${fired === 1 ? '' : 's'}` +
          (alerts.conditions.length > 0
            ? `; ${alerts.conditions.length} alert${alerts.conditions.length === 1 ? '' : 's'} firing` +
              (unchanged > 0 ? ` (${unchanged} announced before and unchanged: serve's /alerts page lists them)` : '')
            : '') +
          (alerts.failedRules.length > 0 ? `; rules failed: ${alerts.failedRules.map((r) => `${r.rule} (${r.error})`).join(', ')}` : '') +
          (alerts.failedChannels.length > 0 ? `; channels failed: ${alerts.failedChannels.map((c) => `${c.channel} (${c.error})`).join(', ')}` : '') +
          (alerts.pending.length > 0 ? `; still owed: ${alerts.pending.map(pendingText).join('; ')}` : '') +
          (alerts.stopped ? `; stopped by ${alerts.stopped}: the rest goes out on the next run` : ''),
      });
    } catch (e) {
      step({ step: 'alerts', status: 'failed', detail: errorMessage(e) });
    }

    if (config.guardrails.length > 0) {
      try {
        const guardrails = await runGuardrailsStep({ config, dbPath: options.dbPath, accounts: options.accounts, sessions: writeSessions({ ...writer, applyViews: false }), log: log.child('guardrails'), client: options.client, signal: options.signal });
        result.guardrails = guardrails;
        step({ step: 'guardrails', status: guardrails.status, detail: guardrails.detail });
      } catch (e) {
        step({ step: 'guardrails', status: 'failed', detail: errorMessage(e) });
      }
    }

    if (config.export.postgres) {
      try {
        // loaded only when configured: most installations never need the PostgreSQL client
        const [{ exportPostgres }, { resolvePostgresTarget, describeTarget }] = await Promise.all([
          import('../export/postgres/export-postgres.ts'),
          import('../export/postgres/target.ts'),
        ]);
        const target = resolvePostgresTarget(config);
        const exported = await withRulesReader(options.dbPath, config.allocation, (store) => exportPostgres(store, target, { log: log.child('export') }));
        step({
          step: 'export',
          status: 'ok',
          detail: `PostgreSQL ${describeTarget(target)}: export ${exported.exportId}, ${exported.slicesRewritten} day slice(s) rewritten, ${exported.rowsWritten} row(s) written`,
        });
      } catch (e) {
        // the export is one transaction: a failure leaves the previous export in place, and the run is partial
        step({ step: 'export', status: 'failed', detail: errorMessage(e) });
      }
    }
    if (options.signal?.aborted) return;

    if (options.email === false || !result.workbook || !wantsEmail(config, report)) {
      step({ step: 'email', status: 'skipped', detail: result.workbook ? `no recipients or SMTP configured for '${report}'` : 'no workbook' });
      return;
    }
    try {
      const rendered = result.workbook;
      // sessions: the database is not held while the SMTP server is reached; the alerts' per-channel budget bounds
      // the retries, so a dead server costs the run seconds, not ~90 s of backoff
      const delivery = await deliverReport({
        sessions: writeSessions(writer),
        config,
        rendered,
        html: result.html,
        logger: log.child('email'),
        budgetMs: config.alerts.outbox.budgetSeconds * 1000,
      });
      result.delivery = delivery;
      step({
        step: 'email',
        status: delivery.status === 'sent' ? 'ok' : delivery.status === 'partial' ? 'partial' : 'failed',
        detail: delivery.status === 'sent' ? `sent to ${delivery.recipients.join(', ')}` : `${delivery.status}: ${delivery.error ?? ''} (workbook kept at ${delivery.path})`,
      });
    } catch (e) {
      step({ step: 'email', status: 'failed', detail: errorMessage(e) });
    }
  };
  try {
    await steps();
  } finally {
    lock.release();
  }

  const bad = result.steps.filter((s) => s.status === 'failed' || s.status === 'partial');
  if (result.exitCode === EXIT.ok && bad.length > 0) {
    const anyOk = result.steps.some((s) => s.status === 'ok');
    result.exitCode = anyOk ? EXIT.partial : EXIT.failure;
  }
  return result;
}
