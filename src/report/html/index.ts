// The HTML report: one self-contained page per report (render-html.ts), built from the page shell (page.ts), the
// sections (sections.ts) and the page's own style and script (assets.ts). `serve` builds its pages from the same parts.
export { htmlFileName, HTML_ROW_LIMIT, reportPage, writeHtmlReport, type PageOptions, type RenderedHtml } from './render-html.ts';
export { esc, htmlPage, sectionId, type PageInput } from './page.ts';
export { tableHtml, tableSection, type HtmlColumn, type HtmlTable } from './sections.ts';
export { contentSecurityPolicy } from './assets.ts';
