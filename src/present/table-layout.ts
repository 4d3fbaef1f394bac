// Which columns of a table a reader must never lose: the name (pinned left once the table scrolls) and the headline
// amount (pinned right, so it is never the one that falls off); long text wraps. On a phone those two (and a leading
// day) always show, and the page script adds as many of the `minor` rest as fit beside them, in their order, ids and
// accounts (`lesser`) last; "All columns" shows every one (browser/page-script.ts).
import { cellText } from '../util/table-text.ts';
import { isNumberColumn, type TableColumn } from './table-column.ts';

/** Text this long in a column makes it wrap instead of widening the table past the screen. */
const WRAP_AT = 60;
/** Text this long is a paragraph. */
const LONG_AT = 240;
// a name column, most telling first: a linked column, then *_name, then the resource-like ones, then a finding's kind
const NAME_FIELDS = [/(^|_)name$/, /^(resource|endpoint|template|view|metric|category|value|dimension|title)$/, /^(kind|finding)$/];
const MINOR_FIELD = /(^|_)id$|^(account|bucket_size|attribution|basis)$/;

/** Each column's layout classes ('pin-l', 'pin-r', 'wrap', 'long', 'when', 'minor', 'lesser'), space-separated. */
export function columnLayout(cols: readonly TableColumn[], rows: readonly (readonly unknown[])[]): string[] {
  const money = cols.flatMap((c, i) => (c.unit === 'usd' ? [i] : []));
  const amount = money.find((i) => cols[i]!.dataBar) ?? money.find((i) => cols[i]!.total === 'sum') ?? money[0];
  const longest = cols.map((_, i) => rows.reduce((m, r) => Math.max(m, cellText(r[i]).length), 0));
  const wraps = cols.map((c, i) => c.unit === 'text' && longest[i]! > WRAP_AT);
  const texts = cols.flatMap((c, i) => (!isNumberColumn(c) && c.unit !== 'date' && c.unit !== 'datetime' && !wraps[i] ? [i] : []));
  // a name field may wrap (an alert's title): it names the row all the same
  const named = cols.flatMap((c, i) => (!isNumberColumn(c) && c.unit !== 'date' && c.unit !== 'datetime' ? [i] : []));
  const name =
    texts.find((i) => cols[i]!.link) ??
    NAME_FIELDS.map((re) => named.find((i) => re.test(cols[i]!.field))).find((i) => i !== undefined) ??
    texts.find((i) => !MINOR_FIELD.test(cols[i]!.field));
  const leadingDay = cols[0] && (cols[0].unit === 'date' || cols[0].field === 'day') ? 0 : undefined;
  const pin = cols.length > 3;
  return cols.map((_, i) => {
    const classes: string[] = [];
    if (pin && i === name) classes.push('pin-l');
    if (pin && i === amount) classes.push('pin-r');
    if (wraps[i]) classes.push('wrap');
    // an instant ("2026-11-29 01:00 Europe/Berlin") may break at its spaces on a phone
    if (cols[i]!.unit === 'datetime') classes.push('when');
    // a paragraph (an alert's message) gets a wider column, so a row is a few lines tall, not dozens
    if (wraps[i] && longest[i]! > LONG_AT) classes.push('long');
    if (i !== name && i !== amount && i !== leadingDay && (name !== undefined || amount !== undefined)) {
      classes.push('minor');
      if (MINOR_FIELD.test(cols[i]!.field)) classes.push('lesser');
    }
    return classes.join(' ');
  });
}
