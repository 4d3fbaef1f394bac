// The one workbook writer: exceljs's streaming WorkbookWriter (every sheet is written row by row and committed, so
// a million-row detail sheet never sits in memory), plus three things that writer lacks, added here in one place:
//  - back-pressure: exceljs pushes sheet XML into the zip without waiting; `drain()` waits while the compressor is
//    behind, which keeps memory flat (without it the unzipped XML of a large sheet piles up in a buffer);
//  - images: the streaming WorksheetWriter has no addImage, so a drawing part is written beside the sheet and linked
//    from it (the same parts the in-memory writer produces);
//  - data bars in the plain 2007 form: exceljs's streaming writer emits a dangling x14 extension reference for them.
// These reach into exceljs 4.4 internals (named below), so package.json pins exceljs to exactly 4.4.0: a new version is
// taken on purpose, with test/report/workbook/xlsx-writer.test.ts (which reads the result back) run against it.
import ExcelJS from 'exceljs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CellValue } from '../cells/index.ts';
import { PRINT_MARGINS } from './print-page.ts';
import { createRowXml, type StyleIds } from './row-xml.ts';

export interface SheetImage {
  png: Buffer;
  /** Zero-based column and row of the top-left corner. */
  col: number;
  row: number;
  width: number;
  height: number;
  name: string;
}

export type SheetWriter = ExcelJS.Worksheet;

export interface SheetOptions {
  /** Rows (and columns) kept visible when scrolling. */
  freeze?: { rows: number; columns?: number };
  tabColor?: string;
  showGridLines?: boolean;
  /** Rows printed at the top of every page (the table's header rows), 1-based and inclusive. */
  printTitleRows?: { first: number; last: number };
}

/** What every printed page says at its foot: left the report, centre the period, right "Page x of y". */
export interface PrintFooter {
  left: string;
  center: string;
}

/** Data rows written as sheet XML text (row-xml.ts) instead of exceljs rows: see rawRows. */
export interface RawRows {
  add(values: readonly CellValue[], height?: number): void;
  /** Hand the rows added since the last flush to the sheet's part (then drain() as after exceljs rows). */
  flush(): void;
}

export interface XlsxWriter {
  addSheet(name: string, options?: SheetOptions): SheetWriter;
  /**
   * Rows numbered on from the last row exceljs wrote, each cell of column i styled `styles[i]`: the large table
   * path, where exceljs's own rows cost most of the time. Every exceljs row of the sheet must be committed first.
   */
  rawRows(sheet: SheetWriter, styles: readonly Partial<ExcelJS.Style>[]): RawRows;
  addImages(sheet: SheetWriter, images: readonly SheetImage[]): void;
  addDataBar(sheet: SheetWriter, ref: string, color: string): void;
  /** Wait until the zip has taken what the sheet wrote (call every few thousand rows). */
  drain(sheet: SheetWriter): Promise<void>;
  commit(): Promise<void>;
}

// exceljs internals used here (4.4.0): WorkbookWriter.zip (archiver) and .styles (the style manager),
// WorksheetWriter.stream (StreamBuf with .buffers and .pipes), ._sheetRelsWriter.addRelationship, ._writeLegacyData
// and ._writeConditionalFormatting, which commit() calls in schema order right where <drawing> and further
// <conditionalFormatting> belong; for raw rows ._rows (rows not yet written), ._rowZero (the next row's number),
// .startedData with ._writeColumns and ._writeOpenSheetData (what writing the first row opens).
interface StreamBufInternals {
  buffers: { length: number }[];
  pipes: { _writableState?: { length: number } }[];
  write(chunk: string): void;
}
interface SheetInternals {
  stream: StreamBufInternals;
  _sheetRelsWriter: { addRelationship(rel: { Type: string; Target: string }): string };
  _writeLegacyData(): void;
  _writeConditionalFormatting(): void;
  _rows: unknown[];
  _rowZero: number;
  startedData: boolean;
  _writeColumns(): void;
  _writeOpenSheetData(): void;
}
interface WorkbookInternals {
  styles: StyleIds;
  zip: { append(source: unknown, data: { name: string }): unknown };
  addImage(image: { buffer: Buffer; extension: 'png' }): number;
  getImage(id: number): { name: string };
}

const DRAWING_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const DRAWING_TYPE = 'application/vnd.openxmlformats-officedocument.drawing+xml';
const EMU_PER_PX = 9525;
const MAX_PENDING_BYTES = 1024 * 1024;
// Excel refuses a header/footer longer than 255 characters (codes included)
const MAX_FOOTER_PART = 100;

/** Header/footer text: a literal & is written && (a single & starts a code such as &P). */
function footerText(s: string): string {
  const cut = s.length > MAX_FOOTER_PART ? `${s.slice(0, MAX_FOOTER_PART - 1)}…` : s;
  return cut.replace(/&/g, '&&');
}

/**
 * Every sheet prints landscape, one page wide and as many pages tall as it needs (fitToHeight 0), with its header
 * rows on each page and the footer. The streaming writer writes <sheetPr><pageSetUpPr fitToPage> when the sheet
 * opens, so this must be given to addWorksheet, not set afterwards.
 */
function printSetup(footer: PrintFooter | undefined, titles: SheetOptions['printTitleRows']) {
  return {
    pageSetup: {
      orientation: 'landscape' as const,
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      margins: { ...PRINT_MARGINS },
      ...(titles ? { printTitlesRow: `${titles.first}:${titles.last}` } : {}),
    },
    ...(footer ? { headerFooter: { oddFooter: `&L${footerText(footer.left)}&C${footerText(footer.center)}&RPage &P of &N` } } : {}),
  };
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

function drawingXml(images: readonly SheetImage[]): string {
  const anchors = images.map(
    (img, i) =>
      `<xdr:oneCellAnchor editAs="oneCell"><xdr:from><xdr:col>${img.col}</xdr:col><xdr:colOff>0</xdr:colOff>` +
      `<xdr:row>${img.row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
      `<xdr:ext cx="${img.width * EMU_PER_PX}" cy="${img.height * EMU_PER_PX}"/>` +
      `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${i + 2}" name="${escapeXml(img.name)}" descr="${escapeXml(img.name)}"/>` +
      `<xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
      `<xdr:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:embed="rId${i + 1}"/>` +
      `<a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
      `<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${img.width * EMU_PER_PX}" cy="${img.height * EMU_PER_PX}"/></a:xfrm>` +
      `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ' +
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
    anchors.join('') +
    '</xdr:wsDr>'
  );
}

function relsXml(targets: readonly string[]): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    targets.map((t, i) => `<Relationship Id="rId${i + 1}" Type="${IMAGE_REL}" Target="../media/${t}"/>`).join('') +
    '</Relationships>'
  );
}

export function createXlsxWriter(path: string, meta: { creator: string; title?: string; footer?: PrintFooter }): XlsxWriter {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true, useSharedStrings: false });
  wb.creator = meta.creator;
  wb.lastModifiedBy = meta.creator;
  if (meta.title) wb.title = meta.title;
  const internals = wb as unknown as WorkbookInternals;
  const drawings: string[] = [];
  const zip = internals.zip;
  const append = zip.append.bind(zip);
  // the content types part is written last (at commit); it must list the drawing parts we added
  zip.append = (source: unknown, data: { name: string }) => {
    if (data.name === '[Content_Types].xml' && typeof source === 'string' && drawings.length > 0) {
      const overrides = drawings.map((d) => `<Override PartName="/xl/drawings/${d}.xml" ContentType="${DRAWING_TYPE}"/>`).join('');
      source = source.replace('</Types>', `${overrides}</Types>`);
    }
    return append(source, data);
  };
  let priority = 1000; // above the priorities exceljs gives its own rules

  return {
    addSheet(name, options = {}) {
      const views: Partial<ExcelJS.WorksheetView>[] = [
        options.freeze
          ? { state: 'frozen', ySplit: options.freeze.rows, xSplit: options.freeze.columns ?? 0, showGridLines: options.showGridLines ?? true }
          : { state: 'normal', showGridLines: options.showGridLines ?? true },
      ];
      return wb.addWorksheet(name, {
        views: views as ExcelJS.WorksheetView[],
        ...(printSetup(meta.footer, options.printTitleRows) as Partial<ExcelJS.AddWorksheetOptions>),
        ...(options.tabColor ? { properties: { tabColor: { argb: options.tabColor } } } : {}),
      });
    },

    rawRows(sheet, styles) {
      const ws = sheet as unknown as SheetInternals;
      if (ws._rows.some(Boolean)) throw new Error('rawRows: the sheet has exceljs rows not yet committed');
      if (!ws.startedData) {
        ws._writeColumns();
        ws._writeOpenSheetData();
        ws.startedData = true;
      }
      const xml = createRowXml(styles, internals.styles);
      let pending = '';
      return {
        add(values, height) {
          pending += xml.row(ws._rowZero, values, height);
          ws._rowZero += 1;
        },
        flush() {
          if (pending) ws.stream.write(pending);
          pending = '';
        },
      };
    },

    addImages(sheet, images) {
      if (images.length === 0) return;
      const name = `drawing${drawings.length + 1}`;
      drawings.push(name);
      const media = images.map((img) => internals.getImage(internals.addImage({ buffer: img.png, extension: 'png' })).name);
      zip.append(drawingXml(images), { name: `xl/drawings/${name}.xml` });
      zip.append(relsXml(media), { name: `xl/drawings/_rels/${name}.xml.rels` });
      const ws = sheet as unknown as SheetInternals;
      const writeLegacy = ws._writeLegacyData.bind(ws);
      ws._writeLegacyData = () => {
        const rId = ws._sheetRelsWriter.addRelationship({ Type: DRAWING_REL, Target: `../drawings/${name}.xml` });
        ws.stream.write(`<drawing r:id="${rId}"/>`);
        writeLegacy();
      };
    },

    addDataBar(sheet, ref, color) {
      const ws = sheet as unknown as SheetInternals;
      const writeCf = ws._writeConditionalFormatting.bind(ws);
      const p = priority++;
      ws._writeConditionalFormatting = () => {
        writeCf();
        ws.stream.write(
          `<conditionalFormatting sqref="${ref}"><cfRule type="dataBar" priority="${p}"><dataBar>` +
            `<cfvo type="min"/><cfvo type="max"/><color rgb="${color}"/></dataBar></cfRule></conditionalFormatting>`,
        );
      };
    },

    async drain(sheet) {
      const stream = (sheet as unknown as SheetInternals).stream;
      for (;;) {
        let pending = 0;
        for (const b of stream.buffers) pending += b.length;
        for (const p of stream.pipes) pending += p._writableState?.length ?? 0;
        if (pending <= MAX_PENDING_BYTES) return;
        await sleep(2);
      }
    },

    async commit() {
      await wb.commit();
    },
  };
}
