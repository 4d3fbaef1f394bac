// Tables as text: a table for a person at a terminal, CSV, JSON or NDJSON for pipes and --format. Values arrive as
// DuckDB's exact JSON forms (DECIMAL, BIGINT and timestamps as strings), so money prints exactly: JSON writes a
// DECIMAL's digits as a number literal, never through a double. Pure functions: src/cli/output.ts decides where the
// text goes; the query module renders billing views with them too.
import { UsageError } from './errors.ts';

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

/** One CSV record as the CSV output writes it, with its CRLF: a result can be written a chunk of rows at a time. */
export function csvLine(values: readonly unknown[]): string {
  return values.map((v) => csvField(cellText(v))).join(',') + '\r\n';
}

function renderTable(t: Table): string {
  const shown = t.rows.map((r) => r.map((v) => (v === null || v === undefined ? 'null' : cellText(v))));
  const widths = t.columns.map((c, i) => Math.max(c.name.length, ...shown.map((r) => r[i]!.length)));
  const right = t.columns.map((c) => c.kind === 'number' || c.kind === 'exact-number');
  const line = (cells: string[]) =>
    cells.map((s, i) => (right[i] ? s.padStart(widths[i]!) : s.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [line(t.columns.map((c) => c.name)), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of shown) out.push(line(r));
  out.push(...(t.footer ?? []));
  if (t.rows.length === 0) out.push('(no rows)');
  return out.join('\n') + '\n';
}

/** The text of a result in one format. */
export function renderOutput(t: Table, format: OutputFormat): string {
  switch (format) {
    case 'table':
      return renderTable(t);
    case 'csv':
      return csvLine(t.columns.map((c) => c.name)) + t.rows.map(csvLine).join('');
    case 'json':
      return t.rows.length === 0 ? '[]\n' : `[\n${t.rows.map((r) => '  ' + jsonObject(t.columns, r)).join(',\n')}\n]\n`;
    case 'ndjson':
      return t.rows.map((r) => jsonObject(t.columns, r) + '\n').join('');
  }
}
