// `gpuledger query "SQL"` – read-only SQL against the database (DESIGN.md): a table on a terminal, CSV/JSON/NDJSON
// for pipes, --out writes a file atomically. The SQL runs in a sandbox (src/query/sandbox.ts): statements that write
// are refused before anything runs, and no file but the database (and --allow-read paths) can be read. Parquet and
// xlsx are files, never a terminal's text: they need --out, written through the same guard and atomic move.
import type { Command } from 'commander';
import { parseRfc3339 } from '../../util/dates.ts';
import type { ExitState } from '../exit-state.ts';
import { defaultFormat, emit, OUTPUT_FORMATS, parseOutputFormat } from '../output.ts';
import { checkOutFolderExists } from '../paths.ts';
import { isStandardOutput } from '../../outputs/standard-output.ts';
import { EmptySqlError } from '../../query/sql-error.ts';
import { UsageError } from '../../util/errors.ts';
import { collect } from '../option-values.ts';

/** The binary formats: files with their column types kept (query/parquet-result.ts, report/workbook/result-workbook.ts). */
const FILE_FORMATS = ['parquet', 'xlsx'] as const;
type FileFormat = (typeof FILE_FORMATS)[number];
const isFileFormat = (f: string | undefined): f is FileFormat => (FILE_FORMATS as readonly (string | undefined)[]).includes(f);

/** --format's value, or the binary format an --out file's extension names. */
function fileFormat(flags: QueryFlags): FileFormat | undefined {
  if (flags.format !== undefined) return isFileFormat(flags.format) ? flags.format : undefined;
  const ext = flags.out === undefined ? undefined : /\.([a-z]+)$/i.exec(flags.out)?.[1]?.toLowerCase();
  return isFileFormat(ext) ? ext : undefined;
}

interface QueryFlags {
  format?: string;
  out?: string;
  asOf?: string;
  allowRead: string[];
  csvSafe?: boolean;
}

export function registerQuery(program: Command, _exit: ExitState): void {
  program
    .command('query')
    .argument('<sql>', 'one read-only SQL statement (SELECT, WITH … SELECT, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN)')
    .option('--format <format>', `${[...OUTPUT_FORMATS, ...FILE_FORMATS].join(', ')} (default: table on a terminal, ndjson in a pipe, from --out's extension); parquet and xlsx need --out FILE`)
    .option('--out <file>', 'write the result to this file (atomically) instead of stdout; - (or /dev/stdout) is stdout')
    .option('--as-of <rfc3339>', "pin report_clock's as_of (sets gpuledger_as_of), e.g. 2026-10-15T00:00:00Z")
    .option('--csv-safe', "CSV for a spreadsheet: a text cell starting with = + - @, a tab or a CR gets a leading ' so it never opens as a formula (numbers stay numbers); without it values are written exactly")
    .option('--allow-read <path>', 'let the SQL read this file, or the files in this folder (repeatable); nothing else but the database is readable', collect, [])
    .description('run read-only SQL against the database, in a sandbox that reads no other file and writes nothing')
    .action(async (sql: string, flags: QueryFlags, command: Command) => {
      const binary = fileFormat(flags);
      if (binary !== undefined) return queryToFile(sql, flags, binary, command);
      // `--out -` or /dev/stdout: the result goes to the stream, as without --out
      if (flags.out !== undefined && isStandardOutput(flags.out)) flags = { ...flags, out: undefined };
      if (flags.format !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(flags.format)) {
        throw new UsageError(`--format must be one of ${[...OUTPUT_FORMATS, ...FILE_FORMATS].join(', ')}, got '${flags.format}'`);
      }
      const format = flags.format ? parseOutputFormat(flags.format) : defaultFormat(flags.out, Boolean(process.stdout.isTTY));
      // exact by default: a program reading the CSV gets the names as they are; --csv-safe is for a person's spreadsheet
      if (flags.csvSafe && format !== 'csv') throw new UsageError(`--csv-safe applies to CSV output only (--format csv, or an --out file ending .csv), not ${format}`);
      const asOf = flags.asOf ? parseRfc3339(flags.asOf, '--as-of') : undefined;
      // text that is only comments is refused by the parser later, with the same words (read-only-guard.ts)
      if (sql.trim() === '') throw new EmptySqlError();
      if (flags.out !== undefined) checkOutFolderExists(flags.out, '--out');
      // the output is checked before DuckDB loads: a refusal is immediate and touches nothing (issue 18 §1)
      const [{ contextFor }, { checkFileOutput }] = await Promise.all([import('../context.ts'), import('../../outputs/output-guard.ts')]);
      const { settings } = contextFor(command);
      const out = flags.out === undefined ? undefined : checkFileOutput({ flag: '--out', path: flags.out, dbPath: settings.dbPath });
      // DuckDB loads only when the command runs, so --help and other commands start fast (issue 11)
      const [{ withRulesReader }, { withBudgets }, { runReadOnlyQuery }, { resolveReadGrants }] = await Promise.all([
        import('../../allocation/reader-rules.ts'),
        import('../../alert/load-budgets.ts'),
        import('../../query/run-query.ts'),
        import('../../query/sandbox.ts'),
      ]);
      const allowRead = resolveReadGrants(flags.allowRead, settings.dbPath);
      // the allocation views answer with this config's rules and rpt_budgets with its budgets, whatever the last writer
      // stored (reader-rules.ts, load-budgets.ts)
      const table = await withRulesReader(settings.dbPath, settings.config.allocation, (store) =>
        withBudgets(store, settings.config.alerts.budgets, (s) => runReadOnlyQuery(s, sql, { asOf, allowRead })),
      );
      emit(table, { format, out, dbPath: settings.dbPath, csv: { formulaSafe: Boolean(flags.csvSafe) } });
    });
}

/** `query --format parquet|xlsx --out FILE`: the typed result, through the output guard, written atomically. */
async function queryToFile(sql: string, flags: QueryFlags, format: FileFormat, command: Command): Promise<void> {
  if (flags.out === undefined) throw new UsageError(`query --format ${format} writes a file: pass --out FILE (e.g. --out result.${format})`);
  if (isStandardOutput(flags.out)) {
    // the bytes of a binary file would garble a terminal; a pipe would take them, but --out - is text's spelling
    throw new UsageError(`query --format ${format} writes ${format === 'parquet' ? 'Parquet' : 'xlsx'} bytes, not text: pass --out FILE (e.g. --out result.${format})`);
  }
  if (flags.csvSafe) throw new UsageError(`--csv-safe applies to CSV output only, not ${format}`);
  const asOf = flags.asOf ? parseRfc3339(flags.asOf, '--as-of') : undefined;
  if (sql.trim() === '') throw new EmptySqlError();
  checkOutFolderExists(flags.out, '--out');
  const [{ contextFor }, { checkFileOutput }] = await Promise.all([import('../context.ts'), import('../../outputs/output-guard.ts')]);
  const { settings } = contextFor(command);
  const out = checkFileOutput({ flag: '--out', path: flags.out, dbPath: settings.dbPath });
  const [{ withRulesReader }, { withBudgets }, { runReadOnlyQueryTyped }, { resolveReadGrants }, { writeParquetResult }, { writeXlsxResult }] = await Promise.all([
    import('../../allocation/reader-rules.ts'),
    import('../../alert/load-budgets.ts'),
    import('../../query/run-query.ts'),
    import('../../query/sandbox.ts'),
    import('../../query/parquet-result.ts'),
    import('../../report/workbook/result-workbook.ts'),
  ]);
  const allowRead = resolveReadGrants(flags.allowRead, settings.dbPath);
  const result = await withRulesReader(settings.dbPath, settings.config.allocation, (store) =>
    withBudgets(store, settings.config.alerts.budgets, (s) => runReadOnlyQueryTyped(s, sql, { asOf, allowRead })),
  );
  await (format === 'parquet' ? writeParquetResult : writeXlsxResult)(result, out, settings.dbPath);
}
