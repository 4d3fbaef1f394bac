// The HTML report: one self-contained page per report (render-html.ts), its sections (sections.ts), made of the
// presentation layer's components (src/present) like every page `serve` shows.
export { HTML_ROW_LIMIT, reportPage, writeHtmlReport, type PageOptions, type RenderedHtml } from './render-html.ts';
export { htmlFileName } from '../file-names.ts';
export { sectionId } from '../../present/index.ts';
export { tableHtml, tableSection, type HtmlColumn, type HtmlTable } from './sections.ts';
