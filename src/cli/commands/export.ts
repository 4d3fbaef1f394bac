// `gpuledger export focus|lake` – the cost facts for other tools: a FOCUS 1.2 file (Parquet or CSV) or a
// Hive-partitioned Parquet lake (account=/family=/month=). Both are written atomically.
import type { Command } from 'commander';
import { FOCUS_FORMATS, type FocusFormat } from '../../export/focus.ts';
import { UsageError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

const WHAT = ['focus', 'lake'] as const;

export function registerExport(program: Command, _exit: ExitState): void {
  program
    .command('export')
    .argument('<what>', 'focus (FOCUS 1.2 file) or lake (Hive-partitioned Parquet directory)')
    .option('--format <format>', `focus: ${FOCUS_FORMATS.join(' or ')} (default parquet); lake: parquet`)
    .option('--out <path>', 'focus: the file to write; lake: the directory to write (replaced atomically)')
    .description('export the cost facts as FOCUS or a Hive-partitioned Parquet lake')
    .action(async (what: string, flags: { format?: string; out?: string }, command: Command) => {
      if (!(WHAT as readonly string[]).includes(what)) throw new UsageError(`export takes focus or lake, got '${what}'`);
      if (!flags.out) throw new UsageError(`export ${what} needs --out ${what === 'lake' ? 'DIR' : 'FILE'}`);
      const accepted: readonly string[] = what === 'focus' ? FOCUS_FORMATS : ['parquet'];
      const format = flags.format ?? 'parquet';
      if (!accepted.includes(format)) {
        throw new UsageError(`--format for export ${what} must be ${accepted.join(' or ')}, got '${format}'`);
      }
      // implementations load only when the command runs, so --help and other commands start fast (issue 11)
      const [{ contextFor }, { exportFocus }, { exportLake }, { withReadStore }] = await Promise.all([
        import('../context.ts'),
        import('../../export/focus.ts'),
        import('../../export/lake.ts'),
        import('../../query/open-database.ts'),
      ]);
      const { settings, log } = contextFor(command);
      const out = flags.out;
      const summary = await withReadStore(settings.dbPath, (store) =>
        what === 'focus' ? exportFocus(store, format as FocusFormat, out) : exportLake(store, out),
      );
      log.info(`wrote ${summary.rows} row(s) to ${summary.path}`);
    });
}
