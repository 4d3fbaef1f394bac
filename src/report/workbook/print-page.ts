// How much of a sheet one printed page holds. Every sheet prints landscape, one page wide (fit to width), on A4 or
// Letter – whichever the printer has – so a page holds more of a wide sheet (scaled down) than of a narrow one. The
// Summary uses it to start a chart on a new page rather than let a page break cut it in two (LibreOffice prints the
// top half under one page's last figures and the rest under the next page's heading).

/** The print margins, inches (xlsx-writer.ts writes them into every sheet). */
export const PRINT_MARGINS = { left: 0.4, right: 0.4, top: 0.5, bottom: 0.6, header: 0.2, footer: 0.25 } as const;

// the landscape papers a sheet may print on, inches: the one that holds the least height per width decides
const PAPERS = [
  { width: 11.69, height: 8.27 }, // A4
  { width: 11, height: 8.5 }, // Letter
] as const;
// LibreOffice lays a column of N characters out about a third wider than Excel's N × 7 + 5 px (its default font
// stands in for Calibri; measured on the nightly Summary's printed columns and rows with Debian's LibreOffice 7.4:
// 15 pt rows printed 9.75 pt apart on a sheet estimated at 0.87 scale): the sheet is wider, so scaled down further
const OFFICE_WIDTH = 1.33;
// row heights are estimates too (fonts differ between Excel, LibreOffice and the machine's): a page is taken to hold
// this much less than it measures
const SLACK = 0.95;
const PT_PER_INCH = 72;
export const PT_PER_PX = 0.75;

/** The height, in the sheet's points (before fit-to-width scaling), one printed page holds of a sheet this wide. */
export function pagePoints(columnsPx: number): number {
  const sheetPt = columnsPx * PT_PER_PX * OFFICE_WIDTH;
  return Math.min(
    ...PAPERS.map((paper) => {
      const width = (paper.width - PRINT_MARGINS.left - PRINT_MARGINS.right) * PT_PER_INCH;
      const height = (paper.height - PRINT_MARGINS.top - PRINT_MARGINS.bottom) * PT_PER_INCH;
      // fit to width shrinks a wider sheet, never enlarges a narrower one
      const scale = Math.min(1, width / sheetPt);
      return (height / scale) * SLACK;
    }),
  );
}
