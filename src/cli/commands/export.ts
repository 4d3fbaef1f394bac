// `gpuledger export focus|lake|postgres` – the cost facts for other tools: a FOCUS 1.2 file (Parquet or CSV), a
// Hive-partitioned Parquet lake (cost/ and cost_daily/, account=/family=/month=) that each export updates in place,
// or a PostgreSQL schema for BI tools, written incrementally in one transaction (src/export/postgres/). Outputs go
// through src/outputs/: never onto the store's files, a lake only in a folder that is empty, new or already a
// gpuledger lake (issue 18 §1).
import type { Command } from 'commander';
import type { Store } from '../../store/database.ts';
import { FOCUS_FORMATS, type FocusFormat } from '../../export/focus-formats.ts';
import { UsageError } from '../../util/errors.ts';
import { isStandardOutput, STANDARD_OUTPUT } from '../../outputs/standard-output.ts';
import type { ExitState } from '../exit-state.ts';

const WHAT = ['focus', 'lake', 'postgres'] as const;

export function registerExport(program: Command, _exit: ExitState): void {
  program
    .command('export')
    .argument('<what>', 'focus (FOCUS 1.2 file), lake (Hive-partitioned Parquet folder) or postgres (a PostgreSQL schema)')
    .option('--format <format>', `focus: ${FOCUS_FORMATS.join(' or ')} (default parquet); lake: parquet`)
    .option('--out <path>', 'focus: the file to write (replaced atomically), or - for stdout; lake: an empty or new folder, or an earlier lake (only changed partitions are rewritten)')
    .option('--url <url>', 'postgres: postgres://USER@HOST:PORT/DB – the password comes from PGPASSWORD (or export.postgres.passwordEnv), never the URL')
    .option('--schema <name>', 'postgres: the schema to write (default gpuledger, or export.postgres.schema)')
    .description('export the cost facts as FOCUS, a Hive-partitioned Parquet lake, or into PostgreSQL')
    .action(async (what: string, flags: { format?: string; out?: string; url?: string; schema?: string }, command: Command) => {
      if (!(WHAT as readonly string[]).includes(what)) throw new UsageError(`export takes focus, lake or postgres, got '${what}'`);
      if (what === 'postgres') return exportToPostgres(flags, command);
      if (flags.url !== undefined || flags.schema !== undefined) throw new UsageError(`--url and --schema belong to export postgres, not export ${what}`);
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
      const toStdout = what === 'focus' && isStandardOutput(flags.out);
      if (toStdout && format === 'parquet' && process.stdout.isTTY) {
        throw new UsageError('export focus --out - writes Parquet bytes: redirect or pipe them (> focus.parquet, | duckdb …), or pass --format csv');
      }
      if (what === 'lake' && isStandardOutput(flags.out)) throw new UsageError(`export lake --out takes a folder; ${flags.out} is the standard output`);
      const out = toStdout ? STANDARD_OUTPUT : what === 'focus' ? guard.checkFileOutput(target) : guard.checkFolderOutput(target, { mayHoldDatabase: false });
      // a lake never takes over a foreign folder: refused before the database is opened
      const previous = what === 'lake' ? inspectLakeFolder(out, '--out', flags.out) : undefined;
      // implementations load only when the command runs, so --help and other commands start fast (issue 11)
      const [{ exportFocus }, { exportLake }, { withRulesReader }] = await Promise.all([
        import('../../export/focus.ts'),
        import('../../export/lake/export-lake.ts'),
        import('../../allocation/reader-rules.ts'),
      ]);
      // the allocation views answer with this config's rules, whatever the last writer stored (reader-rules.ts)
      const withReadStore = <T>(dbPath: string, fn: (store: Store) => Promise<T>) => withRulesReader(dbPath, settings.config.allocation, fn);
      if (what === 'focus') {
        const summary = await withReadStore(settings.dbPath, (store) => exportFocus(store, format as FocusFormat, out, settings.dbPath));
        log.info(`wrote ${summary.rows} row(s) to ${toStdout ? 'the standard output' : summary.path}`);
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

async function exportToPostgres(flags: { format?: string; out?: string; url?: string; schema?: string }, command: Command): Promise<void> {
  if (flags.out !== undefined || flags.format !== undefined) throw new UsageError('export postgres takes --url and --schema, not --out or --format');
  const [{ contextFor }, { exportPostgres }, { resolvePostgresTarget, describeTarget }, { withRulesReader }] = await Promise.all([
    import('../context.ts'),
    import('../../export/postgres/export-postgres.ts'),
    import('../../export/postgres/target.ts'),
    import('../../allocation/reader-rules.ts'),
  ]);
  const { settings, log } = contextFor(command);
  const target = resolvePostgresTarget(settings.config, flags);
  const summary = await withRulesReader(settings.dbPath, settings.config.allocation, (store) => exportPostgres(store, target, { log }));
  log.info(
    `exported to ${describeTarget(target)}: export ${summary.exportId}, ${summary.tablesCreated} table(s) created, ` +
      `${summary.slicesRewritten} day slice(s) rewritten, ${summary.rowsWritten} row(s) written`,
  );
}
