// Tables as text: a table for a person at a terminal, CSV, JSON or NDJSON for pipes and --format. Values arrive as
// DuckDB's exact JSON forms (DECIMAL, BIGINT and timestamps as strings), so money prints exactly: JSON writes a
// DECIMAL's digits as a number literal, never through a double. Pure functions: src/cli/output.ts decides where the
// text goes; the query module renders billing views with them too.
import { formulaSafeText } from './csv-cell.ts';
import { UsageError } from './errors.ts';
import { visibleText } from './visible-text.ts';

export const OUTPUT_FORMATS = ['table', 'csv', 'json', 'ndjson'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How a column's values print: numbers right-aligned in tables and unquoted in JSON. */
export type ColumnKind = 'number' | 'exact-number' | 'boolean' | 'text' | 'other';

export interface Column {
  name: string;
  kind: ColumnKind;
}

export interface Table {
  columns: Column[];
  rows: unknown[][];
  /** Lines printed under a table (e.g. a totals line); ignored by machine formats. */
  footer?: string[];
}

export function parseOutputFormat(value: string, flag = '--format'): OutputFormat {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${OUTPUT_FORMATS.join(', ')}, got '${value}'`);
  }
  return value as OutputFormat;
}

/** The format when none was asked for: a table for a terminal, NDJSON for a pipe, else from the file's extension. */
export function defaultFormat(out: string | undefined, isTTY: boolean): OutputFormat {
  if (out) {
    const ext = /\.([a-z]+)$/i.exec(out)?.[1]?.toLowerCase();
    if (ext === 'csv' || ext === 'json' || ext === 'ndjson') return ext;
    if (ext === 'jsonl') return 'ndjson';
    return 'csv';
  }
  return isTTY ? 'table' : 'ndjson';
}

/** A DuckDB exact number string as a JSON number literal: `12.340000` → `12.34`. */
export function numberLiteral(s: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(s)) return JSON.stringify(s);
  const trimmed = s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
  return trimmed === '-0' ? '0' : trimmed;
}

function jsonValue(value: unknown, kind: ColumnKind): string {
  if (value === null || value === undefined) return 'null';
  if (kind === 'exact-number' && typeof value === 'string') return numberLiteral(value);
  return JSON.stringify(value);
}

function jsonObject(columns: Column[], row: unknown[]): string {
  return `{${columns.map((c, i) => `${JSON.stringify(c.name)}:${jsonValue(row[i], c.kind)}`).join(',')}}`;
}

/** A value as the CSV output writes it: exact, no formatting; null is empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface CsvOptions {
  /**
   * A text cell a spreadsheet would read as a formula is prefixed with ' (csv-cell.ts): every CSV a person opens
   * (serve's downloads, `query --csv-safe`). Off, every value is written exactly – what a program reading the CSV
   * wants.
   */
  formulaSafe?: boolean;
}

/** Whether a cell is text: by its column's kind, or – no columns given (a header line) – by its value. */
function isTextCell(value: unknown, kind: ColumnKind | undefined): boolean {
  // a DECIMAL or BIGINT arrives as a string too: its column says it is a number, and a negative number stays one
  return typeof value === 'string' && (kind === undefined || kind === 'text' || kind === 'other');
}

/**
 * One CSV record as the CSV output writes it, with its CRLF: a result can be written a chunk of rows at a time.
 * `columns` says which cells are numbers (never neutralised); without them every string is text.
 */
export function csvLine(values: readonly unknown[], columns?: readonly Column[], options: CsvOptions = {}): string {
  const field = (v: unknown, i: number) => {
    const text = cellText(v);
    return csvField(options.formulaSafe && isTextCell(v, columns?.[i]?.kind) ? formulaSafeText(text) : text);
  };
  return values.map(field).join(',') + '\r\n';
}

function renderTable(t: Table): string {
  // a name's CR, LF or U+202E would draw a row that is not there, or turn a name around: shown escaped
  const shown = t.rows.map((r) => r.map((v) => (v === null || v === undefined ? 'null' : visibleText(cellText(v)))));
  const names = t.columns.map((c) => visibleText(c.name));
  const widths = names.map((name, i) => Math.max(name.length, ...shown.map((r) => r[i]!.length)));
  const right = t.columns.map((c) => c.kind === 'number' || c.kind === 'exact-number');
  const line = (cells: string[]) =>
    cells.map((s, i) => (right[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [line(names), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of shown) out.push(line(r));
  out.push(...(t.footer ?? []));
  if (t.rows.length === 0) out.push('(no rows)');
  return out.join('\n') + '\n';
}

/** The text of a result in one format. */
export function renderOutput(t: Table, format: OutputFormat, options: CsvOptions = {}): string {
  switch (format) {
    case 'table':
      return renderTable(t);
    case 'csv':
      return csvLine(t.columns.map((c) => c.name), undefined, options) + t.rows.map((r) => csvLine(r, t.columns, options)).join('');
    case 'json':
      return t.rows.length === 0 ? '[]\n' : `[\n${t.rows.map((r) => '  ' + jsonObject(t.columns, r)).join(',\n')}\n]\n`;
    case 'ndjson':
      return t.rows.map((r) => jsonObject(t.columns, r) + '\n').join('');
  }
}
