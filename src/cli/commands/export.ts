// `gpuledger export focus|lake|postgres` – the cost facts for other tools: a FOCUS 1.2 file (Parquet or CSV), a
// Hive-partitioned Parquet lake (account=/family=/month=), both written atomically, or a PostgreSQL schema for BI
// tools, written incrementally in one transaction (src/export/postgres/).
import type { Command } from 'commander';
import { FOCUS_FORMATS, type FocusFormat } from '../../export/focus.ts';
import { UsageError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

const WHAT = ['focus', 'lake', 'postgres'] as const;

export function registerExport(program: Command, _exit: ExitState): void {
  program
    .command('export')
    .argument('<what>', 'focus (FOCUS 1.2 file), lake (Hive-partitioned Parquet directory) or postgres (a PostgreSQL schema)')
    .option('--format <format>', `focus: ${FOCUS_FORMATS.join(' or ')} (default parquet); lake: parquet`)
    .option('--out <path>', 'focus: the file to write; lake: the directory to write (replaced atomically)')
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
      // implementations load only when the command runs, so --help and other commands start fast (issue 11)
      const [{ contextFor }, { exportFocus }, { exportLake }, { withRulesReader }] = await Promise.all([
        import('../context.ts'),
        import('../../export/focus.ts'),
        import('../../export/lake.ts'),
        import('../../allocation/reader-rules.ts'),
      ]);
      const { settings, log } = contextFor(command);
      const out = flags.out;
      const summary = await withRulesReader(settings.dbPath, settings.config.allocation, (store) =>
        what === 'focus' ? exportFocus(store, format as FocusFormat, out) : exportLake(store, out),
      );
      log.info(`wrote ${summary.rows} row(s) to ${summary.path}`);
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
