// The tools above a table: a filter box (the page script hides rows that do not match and re-adds the totals), the
// CSV download – every row from the server, or the rows a file holds – and the count of rows shown.
import { html, type HtmlValue, type Markup } from './html.ts';

export type CsvSource = { href: string } | { fileName: string; rows: number } | undefined;

export function tableTools(o: { label: string; csv?: CsvSource; extra?: HtmlValue }): Markup {
  const csv = o.csv;
  const download =
    csv === undefined
      ? ''
      : 'href' in csv
        ? html`<a class="button" href="${csv.href}" download>Download CSV</a>`
        : html`<button type="button" data-csv="${csv.fileName}">Download CSV${csv.rows > 0 ? '' : ' (no rows)'}</button>`;
  return html`<div class="tools"><input type="search" data-filter-table placeholder="Filter rows" aria-label="Filter the rows of ${o.label}">${download}${o.extra}<span class="count" aria-live="polite"></span></div>`;
}
