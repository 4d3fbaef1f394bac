// `gpuledger query "SQL"` – read-only SQL against the database (DESIGN.md): a table on a terminal, CSV/JSON/NDJSON
// for pipes, --out writes a file atomically. The SQL runs in a sandbox (src/query/sandbox.ts): statements that write
// are refused before anything runs, and no file but the database (and --allow-read paths) can be read.
import type { Command } from 'commander';
import { parseRfc3339 } from '../../util/dates.ts';
import type { ExitState } from '../exit-state.ts';
import { defaultFormat, emit, OUTPUT_FORMATS, parseOutputFormat } from '../output.ts';
import { checkOutFolderExists } from '../paths.ts';
import { isStandardOutput } from '../../outputs/standard-output.ts';
import { EmptySqlError } from '../../query/sql-error.ts';
import { UsageError } from '../../util/errors.ts';
import { collect } from '../option-values.ts';

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
    .option('--format <format>', `${OUTPUT_FORMATS.join(', ')} (default: table on a terminal, ndjson in a pipe, from --out's extension)`)
    .option('--out <file>', 'write the result to this file (atomically) instead of stdout; - (or /dev/stdout) is stdout')
    .option('--as-of <rfc3339>', "pin report_clock's as_of (sets gpuledger_as_of), e.g. 2026-10-15T00:00:00Z")
    .option('--csv-safe', "CSV for a spreadsheet: a text cell starting with = + - @, a tab or a CR gets a leading ' so it never opens as a formula (numbers stay numbers); without it values are written exactly")
    .option('--allow-read <path>', 'let the SQL read this file, or the files in this folder (repeatable); nothing else but the database is readable', collect, [])
    .description('run read-only SQL against the database, in a sandbox that reads no other file and writes nothing')
    .action(async (sql: string, flags: QueryFlags, command: Command) => {
      // `--out -` or /dev/stdout: the result goes to the stream, as without --out
      if (flags.out !== undefined && isStandardOutput(flags.out)) flags = { ...flags, out: undefined };
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
      const [{ withRulesReader }, { runReadOnlyQuery }, { resolveReadGrants }] = await Promise.all([
        import('../../allocation/reader-rules.ts'),
        import('../../query/run-query.ts'),
        import('../../query/sandbox.ts'),
      ]);
      const allowRead = resolveReadGrants(flags.allowRead, settings.dbPath);
      // the allocation views answer with this config's rules, whatever the last writer stored (reader-rules.ts)
      const table = await withRulesReader(settings.dbPath, settings.config.allocation, (store) => runReadOnlyQuery(store, sql, { asOf, allowRead }));
      emit(table, { format, out, dbPath: settings.dbPath, csv: { formulaSafe: Boolean(flags.csvSafe) } });
    });
}
