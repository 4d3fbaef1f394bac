// The one output module (STYLE.md §12): every command's result goes out here – a table for a person at a terminal,
// CSV/JSON/NDJSON for pipes and --format (src/util/table-text.ts renders them), to stdout or to a file written
// atomically (src/outputs/).
import { writeFileAtomic } from '../outputs/atomic-file.ts';
import { renderOutput, type OutputFormat, type Table } from '../util/table-text.ts';

export {
  defaultFormat,
  numberLiteral,
  OUTPUT_FORMATS,
  parseOutputFormat,
  renderOutput,
  type Column,
  type ColumnKind,
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
}

export function emit(t: Table, options: EmitOptions): void {
  const text = renderOutput(t, options.format);
  if (options.out) writeFileAtomic(options.out, text, options.dbPath);
  else (options.stdout ?? process.stdout).write(text);
}

/** Text that is not a table – a path, a summary, a list – on stdout, through the same module as every table. */
export function print(text: string, stdout: NodeJS.WritableStream = process.stdout): void {
  stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
