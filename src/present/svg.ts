// The one way gpuledger writes SVG: html.ts's contract for drawings – every interpolation escaped unless it is a
// Markup made by `html` or `svg` – so a chart's labels (group names, budget names, alert titles: data from the store,
// the config and the URL) are text however they are drawn. A tag of its own so a reader, and the markup test
// (test/present/markup-discipline.test.ts), sees which templates are drawings. The escaper writes only the entities
// XML itself defines, so the same text is valid inline in a page and as the SVG file resvg rasterises for a PNG.
import { html, type HtmlValue, type Markup } from './html.ts';

/** svg`<text x="${x}">${label}</text>`: every interpolation escaped unless it is Markup. */
export function svg(strings: TemplateStringsArray, ...values: HtmlValue[]): Markup {
  return html(strings, ...values);
}
