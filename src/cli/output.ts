// The one output module (STYLE.md §12): every command's result goes out here – a table for a person at a terminal,
// CSV/JSON/NDJSON for pipes and --format (src/util/table-text.ts renders them), to stdout or to a file written
// atomically (src/outputs/).
import { writeFileAtomic } from '../outputs/atomic-file.ts';
import { renderOutput, type CsvOptions, type OutputFormat, type Table } from '../util/table-text.ts';

export {
  defaultFormat,
  numberLiteral,
  OUTPUT_FORMATS,
  parseOutputFormat,
  renderOutput,
  type Column,
  type ColumnKind,
  type CsvOptions,
  type OutputFormat,
  type Table,
} from '../util/table-text.ts';

export interface EmitOptions {
  format: OutputFormat;
  /** A file to write atomically instead of stdout, already checked with checkFileOutput (src/outputs/). */
  out?: string;
  /** The database whose files the temporary name must avoid. */
  dbPath?: string;
  stdout?: NodeJS.WritableStream;
  /** How CSV is written: exact by default, formula-safe on request (`query --csv-safe`). */
  csv?: CsvOptions;
}

export function emit(t: Table, options: EmitOptions): void {
  const text = renderOutput(t, options.format, options.csv);
  if (options.out) writeFileAtomic(options.out, text, options.dbPath);
  else (options.stdout ?? process.stdout).write(text);
}

/** Text that is not a table – a path, a summary, a list – on stdout, through the same module as every table. */
export function print(text: string, stdout: NodeJS.WritableStream = process.stdout): void {
  stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
