import { describe, expect, it } from 'vitest';
import { dataTable } from '../../src/present/data-table.ts';
import { escapeText } from '../../src/present/html.ts';
import type { TableColumn } from '../../src/present/table-column.ts';

const hostile = `<script>alert("x")</script>' onmouseover='alert(1)`;
const E = escapeText(hostile);

const columns: TableColumn[] = [
  { field: 'template_name', header: 'Template', unit: 'text', total: 'label', link: (v) => ({ href: `/drill?value=${String(v)}` }) },
  { field: 'share_pct', header: 'Share', unit: 'percent' },
  { field: 'change_amount', header: 'Change', unit: 'usd', upIsBad: true },
  { field: 'amount', header: 'Amount', unit: 'usd', total: 'sum' },
];

describe('dataTable', () => {
  it('escapes a hostile name in every slot: cell text, data-v, link href, header, label and empty text', () => {
    const out = dataTable({
      columns: [{ field: hostile, header: hostile, unit: 'text', link: (v) => ({ href: String(v), filter: String(v) }) }],
      rows: [[hostile]],
      emptyText: hostile,
      label: hostile,
      timeZone: 'UTC',
    }).text;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain("' onmouseover='");
    expect(out).toContain(`data-field="${E}"`);
    expect(out).toContain(`<button type="button">${E}</button>`);
    expect(out).toContain(`aria-label="${E}"`);
    expect(out).toContain(`<a href="${E}" data-filter="${E}">${E}</a>`);
    expect(out).toContain(`data-v="${E}"`);
    const empty = dataTable({ columns, rows: [], emptyText: hostile, label: 'x', timeZone: 'UTC' }).text;
    expect(empty).toContain(`<p class="note">${E}</p>`);
  });

  it('reads "new" in the percent change of a row new in its period, and a dash where nothing changed', () => {
    const cols: TableColumn[] = [
      { field: 'name', header: 'Name', unit: 'text' },
      { field: 'change_amount', header: 'Change', unit: 'usd', upIsBad: true },
      { field: 'change_pct', header: 'Change %', unit: 'percent', upIsBad: true },
    ];
    const out = dataTable({ columns: cols, rows: [['fresh', '244.570000', null], ['idle', '0.000000', null], ['grew', '5.000000', '12.5000']], emptyText: '', label: 'x', timeZone: 'UTC' }).text;
    const pcts = [...out.matchAll(/<tr><td[^>]*>(\w+)<\/td><td[^>]*>[^<]*<\/td><td[^>]*>([^<]*)<\/td><\/tr>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(pcts).toEqual(['fresh new', 'idle –', 'grew +12.5 %']);
  });

  it('shows each value in its column\'s unit and keeps the exact value in data-v', () => {
    const out = dataTable({ columns, rows: [['a', 12.345, '-3.500000', '1234.565000']], emptyText: '', label: 'x', timeZone: 'UTC' }).text;
    expect(out).toContain('<td class="minor num" data-v="12.345">12.3 %</td>');
    expect(out).toContain('<td class="minor num down" data-v="-3.500000">-$3.50</td>');
    // the name stays in sight on the left, the amount on the right; the rest may fold away on a phone
    expect(out).toContain('<td class="pin-l" data-v="a">');
    expect(out).toContain('<td class="pin-r num" data-v="1234.565000">$1,234.57</td>');
    // the link is data: the cell's value, the href made from it
    expect(out).toContain('<a href="/drill?value=a">a</a>');
  });

  it('writes a totals row of the exact totals of all rows, with how to re-add them under a filter', () => {
    const out = dataTable({ columns, rows: [['a', 50, '0', '1.000000']], totals: { amount: '2.500000' }, totalRows: 2, emptyText: '', label: 'x', timeZone: 'UTC' }).text;
    expect(out).toMatch(/<tr class="totals"><th scope="row"[^>]*>Total<\/th><th[^>]*><\/th><th[^>]*><\/th><th class="[^"]*num" data-v="2.500000" data-fmt="usd">\$2.50<\/th><\/tr>/);
    const none = dataTable({ columns, rows: [], totals: { amount: '0' }, totalRows: 0, emptyText: 'none', label: 'x', timeZone: 'UTC' }).text;
    expect(none).toContain('>Total (no rows)</th>');
    // no summed column, or no totals given: no totals row
    expect(dataTable({ columns, rows: [['a', 1, '0', '1']], emptyText: '', label: 'x', timeZone: 'UTC' }).text).not.toContain('class="totals"');
  });

  it('links only cells with a value, and no cell whose link function declines', () => {
    const cols: TableColumn[] = [{ field: 'template_name', header: 'T', unit: 'text', link: (v) => (v === '(none)' ? undefined : { href: '#s-x', filter: String(v) }) }];
    const out = dataTable({ columns: cols, rows: [[null], ['(none)'], ['t1']], emptyText: '', label: 'x', timeZone: 'UTC' }).text;
    expect(out.match(/<a /g)).toHaveLength(1);
    expect(out).toContain('<td data-v="">–</td>');
    expect(out).toContain('<a href="#s-x" data-filter="t1">t1</a>');
  });
});
