// A metrics CSV: a header naming the columns date, metric, value, scope (may be left out: the whole account) and
// account (may be left out: the import's account), then one row per line. A column gpuledger does not read is
// refused, never ignored: an ignored `account` column once put every row into one account (issue 26 §7). Fields may be quoted ("…", "" for a quote), so a scope value may hold a comma.
// Blank lines are skipped; line numbers are the file's own, so an error points where an editor does.
import { ACCEPTED_COLUMNS, MetricsFileError, METRICS_HEADER, OPTIONAL_COLUMNS, type RawMetricRow } from './metric-rows.ts';

function splitLine(line: string, file: string, n: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new MetricsFileError(`${file} line ${n}: a quoted field is not closed`);
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') throw new MetricsFileError(`${file} line ${n}: text after a closing quote`);
    } else {
      const comma = line.indexOf(',', i);
      fields.push(line.slice(i, comma < 0 ? line.length : comma));
      i = comma < 0 ? line.length : comma;
    }
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

export function readMetricsCsv(text: string, file: string): RawMetricRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt < 0) throw new MetricsFileError(`${file} is empty; expected a header line ${METRICS_HEADER.join(',')}`);
  const header = splitLine(lines[headerAt]!, file, headerAt + 1).map((h) => h.trim().toLowerCase());
  const index = Object.fromEntries(METRICS_HEADER.map((h) => [h, header.indexOf(h)])) as Record<(typeof METRICS_HEADER)[number], number>;
  const missing = METRICS_HEADER.filter((h) => !OPTIONAL_COLUMNS.includes(h) && index[h] < 0);
  if (missing.length > 0) {
    throw new MetricsFileError(`${file} line ${headerAt + 1}: the header has no ${missing.join(', ')} column; expected ${ACCEPTED_COLUMNS}`);
  }
  const unknown = header.find((h) => !(METRICS_HEADER as readonly string[]).includes(h));
  if (unknown !== undefined) {
    throw new MetricsFileError(`${file} line ${headerAt + 1}: the header has a column '${unknown}' that gpuledger does not read; expected ${ACCEPTED_COLUMNS}`);
  }
  const rows: RawMetricRow[] = [];
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const f = splitLine(line, file, i + 1);
    if (f.length > header.length) throw new MetricsFileError(`${file} line ${i + 1}: ${f.length} fields, the header has ${header.length}`);
    const get = (k: (typeof METRICS_HEADER)[number]) => (index[k] < 0 ? '' : (f[index[k]] ?? ''));
    rows.push({ line: i + 1, date: get('date'), metric: get('metric'), value: get('value'), scope: get('scope'), account: get('account') });
  }
  return rows;
}
