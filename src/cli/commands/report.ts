// `gpuledger report [--report NAME] [--period P] [--format xlsx|html|both] [--out-dir DIR] [--email]`: render the
// workbook and/or the HTML page (paths on stdout) and, with --email, send them. The files are written before delivery
// is attempted: a workbook that could not be delivered stays on disk and the command exits 1; with no recipients or no
// SMTP in the config (the demo has neither) the files are still written, one warning line says what to set, exit 3.
// `--view NAME` renders a saved view of the config instead (report-view.ts).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ExitState } from '../exit-state.ts';
import { ConfigError, EXIT } from '../../util/errors.ts';
import { print } from '../output.ts';

interface ReportFlags {
  report: string;
  period?: string;
  outDir?: string;
  email?: boolean;
  format?: string;
  view?: string;
  category?: string;
}

export function registerReport(program: Command, exit: ExitState): void {
  program
    .command('report')
    .description('render a report workbook (and email it with --email)')
    .option('--report <name>', 'report definition: reports/<name>.yaml or your own in reports.directory', 'nightly')
    .option('--period <period>', "a month such as 2026-10 or a day range such as 2026-10-01..2026-10-15; default: the report's own")
    .option('--out-dir <dir>', 'where the workbook is written (default: config outDir, out/)')
    .option('--format <format>', "xlsx, html or both (default: the report definition's formats, else config reports.formats, else xlsx)")
    .option('--email', 'email the workbook (and the HTML page, if written) to reports.delivery.<name>.recipients')
    .option('--view <name>', "a saved view of the config's views: its workbook and HTML page (not with --report, --period or --format)")
    .option('--category <name>', 'an allocation category, for a report rendered per value (showback): one workbook and page per value, plus a summary')
    .action(async (flags: ReportFlags, command: Command) => {
      if (flags.view !== undefined) {
        const { checkViewFlags, reportView } = await import('./report-view.ts');
        checkViewFlags(command, flags);
        return reportView({ view: flags.view, outDir: flags.outDir, email: flags.email }, command, exit);
      }
      // the output folder is checked before anything heavy loads: a refusal is immediate (issue 18 §1)
      const [{ contextFor }, { checkFolderOutput }] = await Promise.all([import('../context.ts'), import('../../outputs/output-guard.ts')]);
      const { settings, log } = contextFor(command);
      // workbooks may go beside the database, never onto its files
      if (flags.outDir !== undefined) checkFolderOutput({ flag: '--out-dir', path: flags.outDir, dbPath: settings.dbPath }, { mayHoldDatabase: true });
      // exceljs, nodemailer and resvg load only when a report is made, so --help and other commands start fast
      const [{ SESSION_WAIT_MS, withWriter }, report, { createMailer }, { withRulesReader }, { DEMO_DB }] = await Promise.all([
        import('../../store/shared-database.ts'),
        import('../../report/index.ts'),
        import('../../mail/index.ts'),
        import('../../allocation/reader-rules.ts'),
        import('../../config/demo-database.ts'),
      ]);
      const { checkDeliveryConfig, parsePeriod, loadReportDefinition, renderReportFormats, parseReportFormats, reportFormats, deliverReport, ReportDeliveryError } = report;
      // usage and definition errors before the database is opened (exit 2 without touching anything)
      if (flags.period !== undefined) parsePeriod(flags.period);
      const asked = flags.format === undefined ? undefined : parseReportFormats(flags.format);
      const def = loadReportDefinition(flags.report, settings.config.reports.directory);
      // the email carries the workbook: --email always writes it
      const formats = [...reportFormats(def, settings.config, asked), ...(flags.email ? (['xlsx'] as const) : [])];
      // a report per allocation value (showback, issue 39 §3) has its own run: report-category.ts
      report.checkCategoryFlag(def, settings.config, flags.category);
      if (def.category !== undefined) {
        const { reportPerValue } = await import('./report-category.ts');
        const run = { dbPath: settings.dbPath, config: settings.config, report: flags.report, category: flags.category!, period: flags.period, outDir: flags.outDir, email: flags.email === true, formats, log };
        return reportPerValue(run, exit);
      }
      // nowhere to send is no reason to write nothing (issue 38): the files are made, and the warning says what to set
      let undeliverable: string | undefined;
      if (flags.email) {
        try {
          checkDeliveryConfig(settings.config, flags.report);
        } catch (e) {
          if (!(e instanceof ConfigError)) throw e;
          undeliverable = e.message;
        }
      }
      // the mailer reads the SMTP password now, so a missing one is reported before any work is done
      const mailer = flags.email && undeliverable === undefined ? createMailer(settings.config.smtp!, { logger: log }) : undefined;
      try {
        // rendered from the published database – a sync running meanwhile is neither waited for nor disturbed – with
        // this config's allocation rules, whatever the last writer stored, and no write access needed (reader-rules.ts)
        const { withBudgets } = await import('../../alert/load-budgets.ts');
        // rpt_budgets with this config's budgets too (load-budgets.ts)
        const out = await withRulesReader(settings.dbPath, settings.config.allocation, (reader) => withBudgets(reader, settings.config.alerts.budgets, (store) =>
          renderReportFormats({
            store,
            config: settings.config,
            report: flags.report,
            period: flags.period,
            outDir: flags.outDir,
            logger: log,
            formats,
          }),
        ));
        // one path per line, workbook first: scripts read stdout
        for (const f of [out.workbook, out.html]) if (f) print(f.path);
        if (undeliverable !== undefined) {
          // the demo's config never emails (demoBaseConfig): naming a config setting there would send the reader astray
          const demo = settings.dbPath === resolve(DEMO_DB);
          log.warn(`not emailed: ${demo ? 'the demo database is never emailed (simulated data; its config has no recipients or SMTP)' : undeliverable}; the files above are written`);
          exit.code = EXIT.partial;
          return;
        }
        if (!mailer || !out.workbook) return;
        const rendered = out.workbook;
        const result = await withWriter({ dbPath: settings.dbPath, command: 'report', waitMs: SESSION_WAIT_MS, log }, (store) =>
          deliverReport({ store, config: settings.config, rendered, html: out.html, mailer, logger: log }),
        );
        if (result.status !== 'sent') throw new ReportDeliveryError(result);
      } finally {
        mailer?.close();
      }
    });
}
