// The presentation layer: the one way gpuledger writes HTML (html.ts) and SVG (svg.ts), and the components every page
// and email body is made of – the page shell with the site's navigation, sections, breadcrumbs, tables (columns with
// their units, links as data, totals, "the first N of M rows"), charts – and values as text in their units.
export { escapeText, html, isMarkup, joinHtml, trustedMarkup, type HtmlValue, type Markup } from './html.ts';
export { svg } from './svg.ts';
export { hrefWith, type Link } from './link.ts';
export { pageDocument, type PageShell } from './page-shell.ts';
export { contentSecurityPolicy } from './page-assets.ts';
export { contentsNav, siteNav, SITE_PAGES } from './site-nav.ts';
export { breadcrumbs } from './breadcrumbs.ts';
export { linkedSection, section, sectionId, type SectionInput } from './section.ts';
export { dataTable, type TableInput } from './data-table.ts';
export { declaredColumn, isNumberColumn, type CellLink, type TableColumn } from './table-column.ts';
export { columnLayout } from './table-layout.ts';
export { isNewRow, newRowColumns, NEW_ROW_TEXT, type NewRowColumns } from './new-row.ts';
export { totalsRow } from './table-totals.ts';
export { tableTools, type CsvSource } from './table-tools.ts';
export { rowsNote, type RowsNoteInput } from './rows-note.ts';
export { CHART_CUE, chartFigure, chartRow, type ChartInput } from './chart-figure.ts';
export { SIMULATED_LABEL, simulatedBanner } from './simulated.ts';
export { instantText, valueText } from './value-text.ts';
