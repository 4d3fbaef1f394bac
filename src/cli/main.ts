// The gpuledger program: global options, one file per command (src/cli/commands/), and the one place where an
// error becomes a one-line message and an exit code (DESIGN.md "Exit codes").
import { Command, CommanderError } from 'commander';
import { EXIT, exitCodeOf, isGpuledgerError } from '../util/errors.ts';
import { redact } from '../util/secrets.ts';
import { VERSION } from '../version.ts';
import { registerAlerts } from './commands/alerts.ts';
import { registerAllocation } from './commands/allocation.ts';
import { registerBilling } from './commands/billing.ts';
import { registerExport } from './commands/export.ts';
import { registerMetrics } from './commands/metrics.ts';
import { registerQuery } from './commands/query.ts';
import { registerReport } from './commands/report.ts';
import { registerRun } from './commands/run.ts';
import { registerSchedule } from './commands/schedule.ts';
import { registerSimulator } from './commands/simulator.ts';
import { registerSync } from './commands/sync.ts';
import { registerViews } from './commands/views.ts';

/** Commands report their exit code here (a thrown error decides it otherwise). */
export interface ExitState {
  code: number;
}

export function buildProgram(exit: ExitState): Command {
  const program = new Command('gpuledger')
    .description('Cost reporting for GPU cloud workloads: billing histories → DuckDB → SQL views, workbooks and alerts')
    .version(VERSION, '-V, --version')
    .option('--config <file>', 'config file (env GPULEDGER_CONFIG; default ./gpuledger.config.json if present)')
    .option('--db <file>', 'DuckDB database file (env GPULEDGER_DB; default data/gpuledger.duckdb)')
    .option('--api-url <url>', 'platform API base URL (env GPULEDGER_API_URL; default https://api.runpod.io)')
    .option('--queue-api-url <url>', 'Serverless queue API base URL (env GPULEDGER_QUEUE_API_URL; default https://api.runpod.ai)')
    .option('--log-level <level>', 'error, warn, info or debug (env GPULEDGER_LOG_LEVEL)')
    .showHelpAfterError('(run gpuledger --help for usage)')
    .exitOverride();
  for (const register of [
    registerSimulator,
    registerSync,
    registerViews,
    registerQuery,
    registerBilling,
    registerReport,
    registerAlerts,
    registerExport,
    registerRun,
    registerSchedule,
    registerAllocation,
    registerMetrics,
  ]) {
    register(program, exit);
  }
  program.commands.forEach(function override(c: Command) {
    c.exitOverride();
    c.commands.forEach(override);
  });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const exit: ExitState = { code: EXIT.ok };
  const program = buildProgram(exit);
  try {
    await program.parseAsync(argv);
    return exit.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander already printed its message; help and version are successes
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(redact(`gpuledger: ${message}`) + '\n');
    if (!isGpuledgerError(e) && e instanceof Error && process.env.GPULEDGER_LOG_LEVEL === 'debug') {
      process.stderr.write(redact(e.stack ?? '') + '\n');
    }
    return exitCodeOf(e);
  }
}
