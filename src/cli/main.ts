// The gpuledger program: global options, one file per command (src/cli/commands/), and the one place where an
// error becomes a one-line message and an exit code (DESIGN.md "Exit codes").
import { Command, CommanderError, type Option } from 'commander';
import { EXIT, isGpuledgerError, UsageError } from '../util/errors.ts';
import { LOG_LEVELS } from '../util/log.ts';
import { redact } from '../util/secrets.ts';
import { VERSION } from '../version.ts';
import { registerAlerts } from './commands/alerts.ts';
import { registerAllocation } from './commands/allocation.ts';
import { registerBilling } from './commands/billing.ts';
import { registerExport } from './commands/export.ts';
import { registerGuardrails } from './commands/guardrails.ts';
import { registerMetrics } from './commands/metrics.ts';
import { registerQuery } from './commands/query.ts';
import { registerReport } from './commands/report.ts';
import { registerRun } from './commands/run.ts';
import { registerSchedule } from './commands/schedule.ts';
import { registerServe } from './commands/serve.ts';
import { registerSimulator } from './commands/simulator.ts';
import { registerStore } from './commands/store.ts';
import { registerSync } from './commands/sync.ts';
import { registerViews } from './commands/views.ts';
import { describeFailure, failureJson, wantsJson } from './failure.ts';
import { installLastResort, markFinished } from './last-resort.ts';
import type { ExitState } from './exit-state.ts';
import { print } from './output.ts';

export type { ExitState } from './exit-state.ts';

/** What commander would print on stderr: kept, so that a failure is told in one line of our own. */
interface CommanderOutput {
  help: string;
}

export function buildProgram(exit: ExitState, output: CommanderOutput = { help: '' }): Command {
  const program = new Command('gpuledger')
    .description('Cost reporting for GPU cloud workloads: billing histories → DuckDB → SQL views, workbooks and alerts')
    .version(VERSION, '-V, --version')
    .option('--config <file>', 'config file (env GPULEDGER_CONFIG; default ./gpuledger.config.json if present)')
    .option('--db <file>', 'DuckDB database file (env GPULEDGER_DB; default data/gpuledger.duckdb)')
    .option('--api-url <url>', 'platform API base URL (env GPULEDGER_API_URL; default https://api.runpod.io)')
    .option('--queue-api-url <url>', 'Serverless queue API base URL (env GPULEDGER_QUEUE_API_URL; default https://api.runpod.ai)')
    .option('--log-level <level>', `${LOG_LEVELS.join(', ')} (env GPULEDGER_LOG_LEVEL)`)
    // subcommands inherit this when they are created: errors come back as CommanderError and are told by main();
    // the only thing written here is the help a command without its subcommand shows (`gpuledger`, `allocation`)
    .configureOutput({ writeErr: (text) => void (output.help += text), outputError: () => undefined })
    .exitOverride()
    // every command, also those that read no settings (views), refuses a level it does not know
    .hook('preAction', (_program, action) => checkLogLevel(action.optsWithGlobals<{ logLevel?: string }>().logLevel));
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
    registerGuardrails,
    registerStore,
    registerServe,
  ]) {
    register(program, exit);
  }
  program.commands.forEach(function override(c: Command) {
    c.exitOverride();
    c.commands.forEach(override);
  });
  return program;
}

function checkLogLevel(flag: string | undefined): void {
  const level = flag ?? process.env.GPULEDGER_LOG_LEVEL;
  if (level !== undefined && !(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${level}'${flag === undefined ? ' (from GPULEDGER_LOG_LEVEL)' : ''}`);
  }
}

/** Options that take a value, in any command: the argument after one of them is its value, whatever it looks like. */
function valueOptions(program: Command): Set<string> {
  const names = new Set<string>();
  const visit = (c: Command) => {
    for (const o of c.options as readonly Option[]) {
      if (o.required || o.optional) for (const flag of [o.long, o.short]) if (flag) names.add(flag);
    }
    c.commands.forEach(visit);
  };
  visit(program);
  return names;
}

/**
 * SQL may start with a line comment (`query $'-- note\nselect 1'`), which commander would take for an unknown option.
 * An argument that starts with `--` and whitespace is never an option, so it gets a leading space: SQL ignores it,
 * and the whole first line is the comment, so no line or column in an error message moves.
 */
export function protectSqlComments(argv: string[], program: Command): string[] {
  const takesValue = valueOptions(program);
  return argv.map((arg, i) => (/^--\s/.test(arg) && !takesValue.has(argv[i - 1] ?? '') ? ` ${arg}` : arg));
}

async function execute(argv: string[]): Promise<number> {
  const exit: ExitState = { code: EXIT.ok };
  const output: CommanderOutput = { help: '' };
  const program = buildProgram(exit, output);
  try {
    await program.parseAsync(protectSqlComments(argv, program));
    return exit.code;
  } catch (e) {
    if (e instanceof CommanderError && e.code === 'commander.help' && e.exitCode !== 0) {
      // `gpuledger` or `gpuledger allocation` without a command: the list of commands is the answer, on stdout
      print(output.help);
      process.stderr.write('gpuledger: a command is required: pick one of the list above (gpuledger help COMMAND for its options)\n');
      return EXIT.usage;
    }
    if (e instanceof CommanderError && e.exitCode === 0) return EXIT.ok; // --help, --version
    const opts = program.opts<{ db?: string }>();
    const { line, code } = describeFailure(e, opts.db ?? process.env.GPULEDGER_DB);
    // a caller that asked for JSON reads the failure as JSON too: one line, {"error", "code"}
    process.stderr.write((wantsJson(argv) ? failureJson(line, e) : line) + '\n');
    if (!isGpuledgerError(e) && e instanceof Error && process.env.GPULEDGER_LOG_LEVEL === 'debug') {
      process.stderr.write(redact(e.stack ?? '') + '\n');
    }
    return code;
  }
}

/** The program as bin/gpuledger.js runs it: the last-resort handlers first, then the command, then the exit code. */
export async function main(argv: string[]): Promise<number> {
  installLastResort();
  const code = await execute(argv);
  markFinished();
  return code;
}
