// `gpuledger report --report showback --category team`: a report rendered per value of an allocation category
// (src/report/category-reports.ts) – every value's files, then the summary's, one path per line – and with --email
// each value's files to its own recipients (category-delivery.ts). Called by report.ts once the definition says
// `category:`; the flags and the refusals before the database is opened stay there.
import { resolve } from 'node:path';
import type { Config } from '../../config/schema.ts';
import type { ReportFormat } from '../../report/definition/index.ts';
import { ConfigError, EXIT } from '../../util/errors.ts';
import type { Logger } from '../../util/log.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';

export interface CategoryReportRun {
  dbPath: string;
  config: Config;
  report: string;
  category: string;
  period?: string;
  outDir?: string;
  email: boolean;
  formats: ReportFormat[];
  log: Logger;
}

export async function reportPerValue(run: CategoryReportRun, exit: ExitState): Promise<void> {
  const [{ SESSION_WAIT_MS, withWriter }, report, { createMailer }, { withRulesReader }, { withBudgets }, { DEMO_DB }] = await Promise.all([
    import('../../store/shared-database.ts'),
    import('../../report/index.ts'),
    import('../../mail/index.ts'),
    import('../../allocation/reader-rules.ts'),
    import('../../alert/load-budgets.ts'),
    import('../../config/demo-database.ts'),
  ]);
  const { config, log } = run;
  let undeliverable: string | undefined;
  if (run.email) {
    try {
      report.categoryRecipients(config, run.report);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      undeliverable = e.message;
    }
  }
  const mailer = run.email && undeliverable === undefined ? createMailer(config.smtp!, { logger: log }) : undefined;
  try {
    // the published database with this config's rules and budgets, as `report` renders any report (report.ts)
    const rendering = await withRulesReader(run.dbPath, config.allocation, (reader) => withBudgets(reader, config.alerts.budgets, (store) =>
      report.renderCategoryReports({ store, config, report: run.report, category: run.category, period: run.period, outDir: run.outDir, logger: log, formats: run.formats }),
    ));
    for (const set of [...rendering.values.map((v) => v.files), ...(rendering.summary ? [rendering.summary] : [])]) {
      for (const f of [set.workbook, set.html]) if (f) print(f.path);
    }
    if (undeliverable !== undefined) {
      const demo = run.dbPath === resolve(DEMO_DB);
      log.warn(`not emailed: ${demo ? 'the demo database is never emailed (simulated data; its config has no recipients or SMTP)' : undeliverable}; the files above are written`);
      exit.code = EXIT.partial;
      return;
    }
    if (!mailer) return;
    const delivered = await withWriter({ dbPath: run.dbPath, command: 'report', waitMs: SESSION_WAIT_MS, log }, (store) =>
      report.deliverCategoryReports({ store, config, report: run.report, rendering, mailer, logger: log }),
    );
    // a value nobody receives is a choice of the config, not a failure: one line, and the exit stays 0
    if (delivered.notSent.length > 0) {
      log.warn(`written, not emailed (no recipients): ${delivered.notSent.join(', ')} – set reports.delivery.${run.report}.recipientsByValue (values) or .recipients (the summary) to send them`);
    }
    const failed = delivered.results.find((r) => r.status !== 'sent');
    if (failed) throw new report.ReportDeliveryError(failed);
  } finally {
    mailer?.close();
  }
}
