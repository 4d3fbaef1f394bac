// "The first N of M rows": a table that shows only its first rows says so, and where the rest is.
import { unitText } from '../model/index.ts';
import { html, type Markup } from './html.ts';

const n = (count: number) => unitText(count, 'count');

export interface RowsNoteInput {
  shown: number;
  /** Rows of the whole result, or 'more' when only "there are more" is known (counting them all would cost a query). */
  total: number | 'more';
  /** The totals row sums every row, not only the shown ones. */
  totalsOfAll?: boolean;
  /** Where every row can be had ("the CSV has them all"). */
  rest?: string;
}

/** Nothing when every row is shown. */
export function rowsNote(r: RowsNoteInput): Markup {
  if (r.total !== 'more' && r.total <= r.shown) return html``;
  const first = r.total === 'more' ? `The first ${n(r.shown)} rows; more rows not shown` : `The first ${n(r.shown)} of ${n(r.total)} rows`;
  return html`<p class="note">${first}${r.totalsOfAll ? ' (the totals are of all of them)' : ''}${r.rest ? `; ${r.rest}` : ''}.</p>`;
}
