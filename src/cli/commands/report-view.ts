// `gpuledger report --view <name> [--out-dir DIR] [--email]`: a saved view of the config rendered as a workbook and
// an HTML page (paths on stdout, workbook first, like `report`) and, with --email, sent through the report's delivery
// to reports.delivery.<name>.recipients. As with `report`, the files are written before delivery is tried, and
// nowhere to send is a warning and exit 3, not a refusal.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ExitState } from '../exit-state.ts';
import { ConfigError, EXIT, UsageError } from '../../util/errors.ts';
import { print } from '../output.ts';

export interface ReportViewFlags {
  view: string;
  outDir?: string;
  email?: boolean;
}

/** --view with a flag that belongs to a report definition: one line saying which. */
export function checkViewFlags(command: Command, flags: { period?: string; format?: string; category?: string }): void {
  const given = (name: string) => command.getOptionValueSource(name) === 'cli';
  const clash = given('report')
    ? '--report'
    : flags.period !== undefined
      ? '--period'
      : flags.format !== undefined
        ? '--format'
        : flags.category !== undefined
          ? '--category'
          : undefined;
  if (clash !== undefined) {
    throw new UsageError(`--view and ${clash} cannot be used together: a saved view has its own range and writes both a workbook and a page (gpuledger report --view <name> [--out-dir DIR] [--email])`);
  }
}

export async function reportView(flags: ReportViewFlags, command: Command, exit: ExitState): Promise<void> {
  const [{ contextFor }, { checkFolderOutput }] = await Promise.all([import('../context.ts'), import('../../outputs/output-guard.ts')]);
  const { settings, log } = contextFor(command);
  if (flags.outDir !== undefined) checkFolderOutput({ flag: '--out-dir', path: flags.outDir, dbPath: settings.dbPath }, { mayHoldDatabase: true });
  const [{ SESSION_WAIT_MS, withWriter }, report, { createMailer }, { withRulesReader }, { DEMO_DB }, { findView }] = await Promise.all([
    import('../../store/shared-database.ts'),
    import('../../report/index.ts'),
    import('../../mail/index.ts'),
    import('../../allocation/reader-rules.ts'),
    import('../../config/demo-database.ts'),
    import('../../explore/saved-view.ts'),
  ]);
  const { checkDeliveryConfig, renderView, deliverReport, ReportDeliveryError } = report;
  // an unknown name is refused before the database is opened, listing the config's views
  const view = findView(settings.config, flags.view);
  let undeliverable: string | undefined;
  if (flags.email) {
    try {
      checkDeliveryConfig(settings.config, view.name);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      undeliverable = e.message;
    }
  }
  const mailer = flags.email && undeliverable === undefined ? createMailer(settings.config.smtp!, { logger: log }) : undefined;
  try {
    const out = await withRulesReader(settings.dbPath, settings.config.allocation, (store) =>
      renderView({ store, config: settings.config, view: view.name, outDir: flags.outDir, logger: log }),
    );
    for (const f of [out.workbook, out.html]) print(f.path);
    if (undeliverable !== undefined) {
      const demo = settings.dbPath === resolve(DEMO_DB);
      log.warn(`not emailed: ${demo ? 'the demo database is never emailed (simulated data; its config has no recipients or SMTP)' : undeliverable}; the files above are written`);
      exit.code = EXIT.partial;
      return;
    }
    if (!mailer) return;
    const result = await withWriter({ dbPath: settings.dbPath, command: 'report', waitMs: SESSION_WAIT_MS, log }, (store) =>
      deliverReport({ store, config: settings.config, rendered: out.workbook, html: out.html, mailer, logger: log }),
    );
    if (result.status !== 'sent') throw new ReportDeliveryError(result);
  } finally {
    mailer?.close();
  }
}
