// `gpuledger run`: the nightly job (sync → report → alerts → email) and one summary at the end. `npm start` runs
// `run --demo-if-no-key`: without any API key it runs the same job against the built-in simulator instead.
import type { Command } from 'commander';
import type { NightlyResult } from '../../run/nightly.ts';
import { displayPath } from '../../util/display-path.ts';
import { EXIT } from '../../util/errors.ts';
import { exitWith } from '../last-resort.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';
import { waitMs } from '../option-values.ts';

interface RunFlags {
  report: string;
  email: boolean;
  demo?: boolean;
  demoIfNoKey?: boolean;
  outDir?: string;
  wait: string;
}

/** What the demo's summary suggests next: commands that work as printed right after the demo, checked by a test. */
export const DEMO_NEXT_STEPS: readonly (readonly [string, string])[] = [
  ['npx gpuledger views', 'the public SQL views, one line each'],
  ['npx gpuledger query "select * from rpt_by_template"', 'SQL on the database, read-only'],
  ['npx gpuledger allocation explain --category team', 'which rule put each resource in which team'],
  ['npx gpuledger serve', 'the reports, drill-downs and SQL in a browser'],
];

export function renderSummary(result: NightlyResult, demo: { apiUrl: string; dbPath: string } | undefined): string {
  const lines: string[] = [];
  lines.push(demo ? 'gpuledger run – DEMO ON SIMULATED DATA' : 'gpuledger run');
  // the step names in one column, however long the longest (guardrails)
  const width = Math.max(7, ...result.steps.map((s) => s.step.length));
  for (const s of result.steps) lines.push(`  ${s.step.padEnd(width)} ${s.status.padEnd(8)} ${s.detail}`);
  if (result.sync) {
    const money = result.sync.ranges.filter((r) => r.source === 'aggregate' && r.bucketSize === 'day');
    for (const r of money) lines.push(`  synced  ${r.account}: aggregate day buckets ${r.start?.slice(0, 10) ?? ''}..${r.end?.slice(0, 10) ?? ''}, complete through ${r.completeThrough ?? 'n/a'}`);
  }
  if (result.workbook) lines.push(`  workbook ${displayPath(result.workbook.path)}`);
  if (result.alerts) {
    for (const e of result.alerts.events.slice(0, 20)) lines.push(`  alert   ${e.event.padEnd(9)} ${e.severity.padEnd(8)} ${e.title}`);
    if (result.alerts.events.length > 20) lines.push(`  alert   … and ${result.alerts.events.length - 20} more`);
  }
  if (demo) {
    lines.push('');
    lines.push(`This was a demo: the data came from gpuledger's built-in simulator (${demo.apiUrl}), stored in ${demo.dbPath}.`);
    // each of these runs as printed on the demo database (test/integration/readme.test.ts runs the README's)
    if (result.guardrails?.result.waiting.length) {
      // the demo's simulator is gone once the demo ends: an approval is for a real account, where the key can act
      lines.push(
        "The guardrail proposal above is the example config's manual rule on simulated data: nothing was stopped. On a " +
          'real account `gpuledger guardrails plan` lists the proposals and their approve command carries them out (README, Guardrails).',
      );
    }
    lines.push('Try next (every command reads the demo database until a real one exists):');
    for (const [command, what] of DEMO_NEXT_STEPS) lines.push(`  ${command.padEnd(58)} ${what}`);
    lines.push('To report on your real account: export RUNPOD_API_KEY=<your key> and run `npx gpuledger run` (or `npm start` in a checkout);');
    lines.push('several accounts or another API URL go in gpuledger.config.json (see README, "Pointing gpuledger at a real account").');
  }
  return lines.join('\n') + '\n';
}

export function registerRun(program: Command, exit: ExitState): void {
  program
    .command('run')
    .description('the nightly job: sync → report → alerts → email')
    .option('--report <name>', 'report definition to render', 'nightly')
    .option('--no-email', 'render the workbook but do not email it')
    .option('--out-dir <dir>', 'where the workbook and alert files go (default: config outDir)')
    .option('--demo', 'run against the built-in simulator (simulated data, in a separate demo database)')
    .option('--demo-if-no-key', 'run the demo when no account has its API key set (what `npm start` does)')
    .option('--wait <seconds>', 'wait up to this long for another gpuledger process holding the database', '0')
    .action(async (flags: RunFlags, command: Command) => {
      // the whole pipeline (simulator, undici, exceljs, nodemailer) loads only when the job runs (issue 11)
      const [{ contextFor }, { checkFolderOutput }, { checkFileChannels }, { resolveAccounts }, { runDemo, DEMO_DB }, { runNightly }, { demoBaseConfig }] = await Promise.all([
        import('../context.ts'),
        import('../../outputs/output-guard.ts'),
        import('../../alert/channels/file-path.ts'),
        import('../../extract/accounts.ts'),
        import('../../run/demo.ts'),
        import('../../run/nightly.ts'),
        import('../../config/demo-database.ts'),
      ]);
      // the demo writes its own database; a real run never falls back to it (src/config/demo-database.ts)
      const { settings, log } = contextFor(command, { demoFallback: false });
      // the workbook and the alert file may go beside the database, never onto its files (issue 18 §1)
      if (flags.outDir !== undefined) checkFolderOutput({ flag: '--out-dir', path: flags.outDir, dbPath: settings.dbPath }, { mayHoldDatabase: true });
      const wait = waitMs(flags.wait);
      const noKey = settings.config.accounts.every((a) => !process.env[a.apiKeyEnv]);
      const controller = new AbortController();
      const stop = (signal: NodeJS.Signals) => {
        if (controller.signal.aborted) exitWith(`gpuledger: ${signal} again: stopped at once; what was loaded stays, the next run (or sync) reads the rest`, EXIT.failure);
        log.warn(`${signal}: finishing the step in flight, then stopping (again to abort now)`);
        controller.abort(signal);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      try {
        if (flags.demo || (flags.demoIfNoKey && noKey)) {
          const result = await runDemo({ config: demoBaseConfig(settings.config, settings.configPath), log, outDir: flags.outDir, signal: controller.signal });
          print(renderSummary(result, { apiUrl: result.apiUrl, dbPath: DEMO_DB }));
          exit.code = result.exitCode;
          return;
        }
        const accounts = resolveAccounts(settings.config, settings.apiUrl, process.env);
        // a file channel aimed at the store's files is a configuration error: refused before the job starts
        checkFileChannels(settings.config, { outDir: flags.outDir ?? settings.config.outDir, dbPath: settings.dbPath });
        const result = await runNightly({
          config: settings.config,
          dbPath: settings.dbPath,
          accounts,
          log,
          report: flags.report,
          outDir: flags.outDir,
          email: flags.email,
          signal: controller.signal,
          waitMs: wait,
        });
        print(renderSummary(result, undefined));
        exit.code = result.exitCode;
        if (controller.signal.aborted && exit.code === EXIT.ok) exit.code = EXIT.partial;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
}
