// `gpuledger export focus|lake` – the cost facts for other tools: a FOCUS 1.2 file (Parquet or CSV) or a
// Hive-partitioned Parquet lake (cost/ and cost_daily/, account=/family=/month=) that each export updates in place.
// Outputs go through src/outputs/: never onto the store's files, a lake only in a folder that is empty, new or
// already a gpuledger lake (issue 18 §1).
import type { Command } from 'commander';
import { FOCUS_FORMATS, type FocusFormat } from '../../export/focus.ts';
import { UsageError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

const WHAT = ['focus', 'lake'] as const;

export function registerExport(program: Command, _exit: ExitState): void {
  program
    .command('export')
    .argument('<what>', 'focus (FOCUS 1.2 file) or lake (Hive-partitioned Parquet folder)')
    .option('--format <format>', `focus: ${FOCUS_FORMATS.join(' or ')} (default parquet); lake: parquet`)
    .option('--out <path>', 'focus: the file to write (replaced atomically); lake: an empty or new folder, or an earlier lake (only changed partitions are rewritten)')
    .description('export the cost facts as FOCUS or a Hive-partitioned Parquet lake')
    .action(async (what: string, flags: { format?: string; out?: string }, command: Command) => {
      if (!(WHAT as readonly string[]).includes(what)) throw new UsageError(`export takes focus or lake, got '${what}'`);
      if (!flags.out) throw new UsageError(`export ${what} needs --out ${what === 'lake' ? 'DIR' : 'FILE'}`);
      const accepted: readonly string[] = what === 'focus' ? FOCUS_FORMATS : ['parquet'];
      const format = flags.format ?? 'parquet';
      if (!accepted.includes(format)) {
        throw new UsageError(`--format for export ${what} must be ${accepted.join(' or ')}, got '${format}'`);
      }
      // the output is checked before DuckDB loads: a refusal is immediate and touches nothing (issue 18 §1)
      const [{ contextFor }, guard, { inspectLakeFolder }] = await Promise.all([
        import('../context.ts'),
        import('../../outputs/output-guard.ts'),
        import('../../export/lake/lake-folder.ts'),
      ]);
      const { settings, log } = contextFor(command);
      const target = { flag: '--out', path: flags.out, dbPath: settings.dbPath };
      const out = what === 'focus' ? guard.checkFileOutput(target) : guard.checkFolderOutput(target, { mayHoldDatabase: false });
      // a lake never takes over a foreign folder: refused before the database is opened
      const previous = what === 'lake' ? inspectLakeFolder(out, '--out', flags.out) : undefined;
      // implementations load only when the command runs, so --help and other commands start fast (issue 11)
      const [{ exportFocus }, { exportLake }, { withReadStore }] = await Promise.all([
        import('../../export/focus.ts'),
        import('../../export/lake/export-lake.ts'),
        import('../../query/open-database.ts'),
      ]);
      if (what === 'focus') {
        const summary = await withReadStore(settings.dbPath, (store) => exportFocus(store, format as FocusFormat, out, settings.dbPath));
        log.info(`wrote ${summary.rows} row(s) to ${summary.path}`);
        return;
      }
      const s = await withReadStore(settings.dbPath, (store) => exportLake(store, { lake: out, previous, dbPath: settings.dbPath, flag: '--out' }));
      log.info(
        `lake ${s.path}: ${s.rows.cost} cost and ${s.rows.cost_daily} cost_daily row(s) in ${s.files} file(s); ` +
          `rewrote ${s.written}, removed ${s.removed}, unchanged ${s.kept}` +
          (s.leftovers > 0 ? `; cleared ${s.leftovers} temporary file(s) of an interrupted export` : ''),
      );
    });
}
