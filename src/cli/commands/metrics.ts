// `gpuledger metrics import FILE.csv|- [--account NAME]` – business metrics (images, requests, customers…) that
// unit costs divide by (src/metrics/, rpt_unit_cost). A bad file is refused whole with exit 2.
import type { Command } from 'commander';
import type { ExitState } from '../exit-state.ts';
import { storingRules } from '../../allocation/load-rules.ts';

export function registerMetrics(program: Command, _exit: ExitState): void {
  const metrics = program.command('metrics').description('business metrics for unit costs (rpt_unit_cost)');
  metrics
    .command('import')
    .argument('<file>', 'CSV with the header date,metric,value[,scope][,account]; - for CSV on stdin; .parquet or .json are read by DuckDB')
    .option('--account <name>', 'the account of rows that name none in an account column (needed only when the database holds several)')
    .description('import business metrics; a (date, metric, scope) imported again replaces its value')
    .action(async (file: string, flags: { account?: string }, command: Command) => {
      // implementations load only when the command runs, so --help and other commands start fast (issue 11)
      const [{ contextFor }, { importMetrics }, { SESSION_WAIT_MS }] = await Promise.all([
        import('../context.ts'),
        import('../../metrics/import-metrics.ts'),
        import('../../store/shared-database.ts'),
      ]);
      const { settings, log } = contextFor(command);
      const summary = await importMetrics({
        file,
        account: flags.account,
        config: settings.config,
        writer: { dbPath: settings.dbPath, command: 'metrics import', waitMs: SESSION_WAIT_MS, log, prepare: storingRules(settings.config.allocation) },
      });
      log.info(
        `imported ${summary.rows} value(s) of ${summary.metrics.join(', ') || 'no metric'} over ${summary.days} day(s) ` +
          `for account ${summary.accounts.join(', ')} (${summary.replaced} replaced an earlier import)`,
      );
    });
}
