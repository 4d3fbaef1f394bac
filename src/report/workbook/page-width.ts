// The Summary's columns on paper: every sheet prints one page wide (fit to width), so a Summary as wide as its
// widest table would print tiny, and a chart wider than the columns is cut where the columns end (LibreOffice).
// The widths here keep the columns within a landscape page and at least as wide as the charts.

// What fits across a landscape page (A4 or Letter, narrow margins) at a legible fit-to-width scale: about 1,150 px
// of columns. Wider tables are narrowed (their text wraps) rather than shrunk further on paper.
const PAGE_CHARS = 160;
const MIN_NARROWED = 12;

/** Excel's column width in characters → pixels (Calibri 11: 7 px a character plus 5 px padding). */
export function widthPx(chars: number): number {
  return Math.floor(chars * 7 + 5);
}

/**
 * Column widths that fit one page width and hold the widest chart: the widest columns give way first (never below
 * MIN_NARROWED, nor below a column's floor: what must stay on one line, such as the SIMULATED DATA label), then the
 * last column grows until the columns are as wide as the charts, so a chart never reaches past the printed columns
 * (LibreOffice cuts it there).
 */
export function pageWidths(natural: readonly number[], chartPx: number, floors: readonly number[] = []): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0);
  const least = (i: number) => Math.max(MIN_NARROWED, floors[i] ?? 0);
  while (total() > PAGE_CHARS) {
    const narrowable = widths.map((w, i) => (w > least(i) ? w : -1));
    const widest = narrowable.indexOf(Math.max(...narrowable));
    if (narrowable[widest]! < 0) break;
    widths[widest] = widths[widest]! - 1;
  }
  const px = widths.reduce((a, w) => a + widthPx(w), 0);
  if (px < chartPx) widths[widths.length - 1] = widths.at(-1)! + Math.ceil((chartPx - px) / 7);
  return widths;
}

export function wrapStyle(style: object): object {
  return topAligned({ ...style, alignment: { ...(style as { alignment?: object }).alignment, wrapText: true } });
}

/**
 * The style at the top of its row. A wrapped cell reads from its row's top, and a cell beside it keeps the default
 * bottom alignment: printed, a figure's value or a row's amount then sits lines below its label or its "Why" text,
 * read as the next row's. Every cell of a row that may grow is top-aligned, so a row prints as one line.
 */
export function topAligned(style: object): object {
  return { ...style, alignment: { ...(style as { alignment?: object }).alignment, vertical: 'top' } };
}


/**
 * The height (points) a row needs so that wrapped text shows whole: Excel and LibreOffice keep a row's stored
 * height, so a label wrapped onto two lines in a 15 pt row is cut in half. Lines are estimated from the text's length
 * against the column's width in characters (a little generous: text is narrower than the digit the width counts).
 */
export function wrappedRowHeight(texts: readonly { text: string; width: number }[], minimum: number): number {
  const lines = Math.max(1, ...texts.map(({ text, width }) => text.split('\n').reduce((n, part) => n + Math.max(1, Math.ceil(part.length / Math.max(1, width - 2))), 0)));
  return Math.max(minimum, lines > 1 ? lines * 15 + 3 : minimum);
}
