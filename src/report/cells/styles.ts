// The workbook's look: number formats per column unit, and the shared cell styles. Style objects are created
// once and shared – exceljs caches a style id per object (a WeakMap), so a million cells cost one lookup each.
import type { Style } from 'exceljs';
import { isNumberUnit, UNIT_NAMES, unitSpec, type NumberUnit, type Unit } from '../../model/index.ts';

/** A column's format is its unit (src/model/units.ts): what its values are measured in decides how they read. */
export const COLUMN_FORMATS = UNIT_NAMES;
export type ColumnFormat = Unit;

/** The Excel number format of a number unit: the same prefix, decimals and suffix unitText writes. */
function numberFormat(spec: NumberUnit, signed: boolean): string {
  const body = `${spec.prefix ? `"${spec.prefix}"` : ''}#,##0${spec.decimals > 0 ? `.${'0'.repeat(spec.decimals)}` : ''}${spec.suffix ? `"${spec.suffix}"` : ''}`;
  return signed ? `+${body};-${body};${body}` : `${body};-${body}`;
}

/** Excel number formats. The cell keeps every digit it was given; the format shows the unit's decimals. */
export const NUM_FMT = Object.fromEntries(
  UNIT_NAMES.map((u) => {
    const spec = unitSpec(u);
    if (spec.kind === 'number') return [u, numberFormat(spec, false)];
    return [u, spec.kind === 'date' ? 'yyyy-mm-dd' : spec.kind === 'datetime' ? 'yyyy-mm-dd hh:mm' : spec.kind === 'text' ? '@' : undefined];
  }),
) as Record<ColumnFormat, string | undefined>;

/** Changes carry an explicit sign: +$12.00 reads as an increase at a glance. */
export const SIGNED_NUM_FMT = Object.fromEntries(
  UNIT_NAMES.flatMap((u) => {
    const spec = unitSpec(u);
    return spec.kind === 'number' ? [[u, numberFormat(spec, true)]] : [];
  }),
) as Partial<Record<ColumnFormat, string>>;

export const COLORS = {
  ink: 'FF1F2937',
  muted: 'FF6B7280',
  headerFill: 'FF1F3A5F',
  headerText: 'FFFFFFFF',
  totalFill: 'FFF1F5F9',
  rule: 'FF94A3B8',
  dataBar: 'FF5B9BD5',
  increase: 'FFC00000', // cost going up is bad: red
  decrease: 'FF00703C', // cost going down: green
  alertFill: 'FFC00000',
  alertText: 'FFFFFFFF',
} as const;

const thin = { style: 'thin' as const, color: { argb: COLORS.rule } };

export const STYLE = {
  title: { font: { bold: true, size: 15, color: { argb: COLORS.ink } } },
  subtitle: { font: { italic: true, size: 10, color: { argb: COLORS.muted } } },
  section: { font: { bold: true, size: 12, color: { argb: COLORS.headerFill } } },
  label: { font: { color: { argb: COLORS.ink } } },
  note: { font: { size: 10, color: { argb: COLORS.muted } } },
  wrap: { alignment: { wrapText: true, vertical: 'top' }, font: { name: 'Consolas', size: 9 } },
  header: {
    font: { bold: true, color: { argb: COLORS.headerText } },
    fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: COLORS.headerFill } },
    alignment: { vertical: 'middle', wrapText: true },
    border: { bottom: thin },
  },
  headerRight: {
    font: { bold: true, color: { argb: COLORS.headerText } },
    fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: COLORS.headerFill } },
    alignment: { vertical: 'middle', horizontal: 'right', wrapText: true },
    border: { bottom: thin },
  },
  alert: {
    font: { bold: true, size: 12, color: { argb: COLORS.alertText } },
    fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: COLORS.alertFill } },
    alignment: { vertical: 'middle' },
  },
} satisfies Record<string, Partial<Style>>;

const cache = new Map<string, Partial<Style>>();

/** The shared style of a data cell (or a totals cell) of the given format. */
export function cellStyle(format: ColumnFormat, options: { signed?: boolean; total?: boolean; big?: boolean } = {}): Partial<Style> {
  const key = `${format}|${options.signed ? 1 : 0}|${options.total ? 1 : 0}|${options.big ? 1 : 0}`;
  let style = cache.get(key);
  if (!style) {
    const numFmt = (options.signed ? SIGNED_NUM_FMT[format] : undefined) ?? NUM_FMT[format];
    style = {};
    if (numFmt && format !== 'text') style.numFmt = numFmt;
    if (format === 'boolean') style.alignment = { horizontal: 'center' };
    if (options.total) {
      style.font = { bold: true, color: { argb: COLORS.ink } };
      style.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: COLORS.totalFill } };
      style.border = { top: thin, bottom: { style: 'double', color: { argb: COLORS.rule } } };
    } else if (options.big) {
      style.font = { bold: true, size: 13, color: { argb: COLORS.ink } };
    }
    cache.set(key, style);
  }
  return style;
}

export function isNumericFormat(format: ColumnFormat): boolean {
  return isNumberUnit(format);
}
