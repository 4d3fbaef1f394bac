// Reading what a person sees: the text of an HTML report's tables and key figures (beside each cell's exact data-v),
// a workbook cell as its number format shows it, and a shown text read back in the unit it claims. Written for the
// test of units (test/integration/report-units.test.ts); restated here on purpose rather than borrowed from
// src/model/unit-text.ts, so a wrong unit in the renderers cannot agree with itself.
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
const textOf = (inner: string) => unescape(inner.replace(/<[^>]*>/g, '')).trim();

export interface ShownCell {
  /** The exact value (data-v): DuckDB's text of it, '' for NULL. */
  exact: string;
  text: string;
}

export interface ShownTable {
  fields: string[];
  headers: string[];
  rows: ShownCell[][];
}

function readTable(table: string): ShownTable {
  const fields = [...table.matchAll(/<th scope="col" data-field="([^"]*)"/g)].map((m) => unescape(m[1]!));
  const headers = [...table.matchAll(/<th scope="col"[^>]*><button type="button">([^<]*)<\/button>/g)].map((m) => unescape(m[1]!));
  const tbody = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  const rows = [...tbody.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<td[^>]*data-v="([^"]*)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => ({ exact: unescape(m[1]!), text: textOf(m[2]!) })),
  );
  return { fields, headers, rows };
}

/** The section of a sheet (by its section id), as HTML. */
export function htmlSection(html: string, id: string): string {
  const m = new RegExp(`<section id="${id}"[^>]*>([\\s\\S]*?)</section>`).exec(html);
  if (!m) throw new Error(`no section ${id}`);
  return m[1]!;
}

/** The data table of a table section. */
export function sectionTable(section: string): ShownTable {
  const t = /<table class="data[^"]*">([\s\S]*?)<\/table>/.exec(section)?.[1];
  if (!t) throw new Error('no data table in the section');
  return readTable(t);
}

/** The data table under a summary block's <h3> title. */
export function blockTable(section: string, title: string): ShownTable {
  const at = section.indexOf(`<h3>${title.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}</h3>`);
  if (at < 0) throw new Error(`no block '${title}'`);
  const t = /<table class="data[^"]*">([\s\S]*?)<\/table>/.exec(section.slice(at))?.[1];
  if (!t) throw new Error(`no table under '${title}'`);
  return readTable(t);
}

export interface ShownFigure {
  label: string;
  exact: string;
  text: string;
  note: string | undefined;
}

export function htmlFigures(html: string): ShownFigure[] {
  return [...html.matchAll(/<div class="figure"><div class="label">([^<]*)<\/div><div class="value[^"]*" data-v="([^"]*)">([^<]*)<\/div>(?:<div class="fnote">([^<]*)<\/div>)?<\/div>/g)].map((m) => ({
    label: unescape(m[1]!),
    exact: unescape(m[2]!),
    text: unescape(m[3]!),
    note: m[4] === undefined ? undefined : unescape(m[4]),
  }));
}

/** Split a number format at its section separators (not inside quotes). */
function sections(numFmt: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of numFmt) {
    if (ch === '"') quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** A number as Excel shows it in one of the number formats gpuledger writes (literals, #,##0.00, a bare % scales). */
export function excelText(value: number, numFmt: string): string {
  const parts = sections(numFmt);
  let part = parts[0]!;
  let v = value;
  if (value < 0 && parts.length > 1) {
    part = parts[1]!;
    v = -value;
  } else if (value === 0 && parts.length > 2) part = parts[2]!;
  let out = '';
  let number = '';
  let percent = false;
  for (const token of part.match(/"[^"]*"|[#0,.]+|./g) ?? []) {
    if (token.startsWith('"')) out += token.slice(1, -1);
    else if (/^[#0,.]+$/.test(token)) {
      number = token;
      out += '\u0000';
    } else if (token === '%') {
      percent = true;
      out += '%';
    } else out += token;
  }
  if (percent) v *= 100;
  const decimals = number.includes('.') ? number.split('.')[1]!.length : 0;
  const negative = v < 0 && parts.length === 1;
  const abs = Math.abs(v);
  // half away from zero, as Excel rounds what it shows
  const fixed = (Math.round(abs * 10 ** decimals + 1e-7) / 10 ** decimals).toFixed(decimals);
  const [whole, frac] = fixed.split('.') as [string, string?];
  const grouped = number.includes(',') ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  return (negative ? '-' : '') + out.replace('\u0000', grouped + (frac ? `.${frac}` : ''));
}

/** How a unit reads, said again independently: the shape of its text and the scale from the stored value. */
const SHAPES: Record<string, { shape: RegExp; decimals: number; scale: number }> = {
  usd: { shape: /^[+-]?\$\d{1,3}(,\d{3})*\.\d{2}$/, decimals: 2, scale: 1 },
  usd_per_hour: { shape: /^[+-]?\$\d{1,3}(,\d{3})*\.\d{2}\/h$/, decimals: 2, scale: 1 },
  usd_per_unit: { shape: /^[+-]?\$\d{1,3}(,\d{3})*\.\d{4}$/, decimals: 4, scale: 1 },
  percent: { shape: /^[+-]?\d{1,3}(,\d{3})*\.\d %$/, decimals: 1, scale: 1 },
  ratio: { shape: /^[+-]?\d{1,3}(,\d{3})*\.\d{2}$/, decimals: 2, scale: 1 },
  hours: { shape: /^[+-]?\d{1,3}(,\d{3})*\.\d h$/, decimals: 1, scale: 1 },
  days_from_hours: { shape: /^[+-]?\d{1,3}(,\d{3})* days$/, decimals: 0, scale: 1 / 24 },
  count: { shape: /^[+-]?\d{1,3}(,\d{3})*$/, decimals: 0, scale: 1 },
  quantity: { shape: /^[+-]?\d{1,3}(,\d{3})*\.\d{2}$/, decimals: 2, scale: 1 },
};

/**
 * Why `text` does not show `exact` in `unit` within the shown precision, or undefined when it does. `exact` is the
 * stored value (hours for a duration read in days).
 */
export function misreads(text: string, exact: string, unit: string): string | undefined {
  const s = SHAPES[unit];
  if (!s) return `no shape for unit ${unit}`;
  if (!s.shape.test(text)) return `'${text}' is not written as ${unit}`;
  const shown = Number(text.replace(/[^0-9.-]/g, ''));
  const expected = Number(exact) * s.scale;
  const tolerance = 0.5 * 10 ** -s.decimals + 1e-9;
  return Math.abs(shown - expected) <= tolerance ? undefined : `'${text}' shows ${shown}, the value is ${exact} (${unit}: ${expected})`;
}
