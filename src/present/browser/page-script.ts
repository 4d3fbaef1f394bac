// The script of every page (report files and `serve`), in the browser: sorting, filtering with exact totals of the
// shown rows, CSV download, section links that filter, the cues of a table wider than its box, and on a phone the
// columns that fit. Plain DOM, no framework. Type-checked against the DOM (tsconfig.browser.json, npm run
// typecheck), bundled by scripts/build.js into page-script.generated.ts, which page-assets.ts inlines and hashes
// into the page's Content-Security-Policy: the script is static text, never data.
import { FORMULA_START_SOURCE } from '../../util/csv-cell.ts';

type Cell = HTMLTableCellElement;

(() => {
  const key = (td: Cell | undefined) => (td ? (td.dataset.v ?? td.textContent ?? '') : '');
  const numeric = (th: Element) => th.classList.contains('num');
  const bodyOf = (table: HTMLTableElement) => table.tBodies[0]!;

  function sortBy(table: HTMLTableElement, col: number, th: Element) {
    const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    table.querySelectorAll('thead th[aria-sort]').forEach((h) => h.setAttribute('aria-sort', 'none'));
    th.setAttribute('aria-sort', dir);
    const body = bodyOf(table);
    const rows = [...body.rows];
    const sign = dir === 'ascending' ? 1 : -1;
    const cmp = numeric(th)
      ? (a: HTMLTableRowElement, b: HTMLTableRowElement) => {
          const x = key(a.cells[col]);
          const y = key(b.cells[col]);
          if (x === '') return 1;
          if (y === '') return -1;
          return sign * (Number(x) - Number(y));
        }
      : (a: HTMLTableRowElement, b: HTMLTableRowElement) => sign * key(a.cells[col]).localeCompare(key(b.cells[col]));
    rows.sort(cmp).forEach((r) => body.appendChild(r));
  }

  function filter(section: Element, text: string) {
    const table = section.querySelector<HTMLTableElement>('table.data');
    if (!table) return;
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const r of bodyOf(table).rows) {
      const hay = (r.textContent ?? '').toLowerCase();
      const ok = words.every((w) => hay.includes(w));
      r.hidden = !ok;
      if (ok) shown++;
    }
    const count = section.querySelector('.count');
    if (count) count.textContent = words.length ? `${shown} of ${bodyOf(table).rows.length} rows` : '';
    totals(table, words.length > 0);
  }

  // the Total row follows the filter: exact sums of the shown rows (decimal strings as integer micros, no float)
  const micros = (t: string): bigint | null => {
    const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(t.trim());
    if (!m) return null;
    const v = BigInt((m[2] || '0') + ((m[3] || '') + '000000').slice(0, 6));
    return m[1] ? -v : v;
  };
  const group = (d: string) => d.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  function moneyText(v: bigint, signed: boolean) {
    const neg = v < 0n;
    const abs = neg ? -v : v;
    const cents = (abs + 5000n) / 10000n;
    const t = `$${group((cents / 100n).toString())}.${(cents % 100n).toString().padStart(2, '0')}`;
    return neg && cents > 0n ? `-${t}` : signed && cents > 0n ? `+${t}` : t;
  }

  function totals(table: HTMLTableElement, filtered: boolean) {
    const row = table.tHead?.querySelector<HTMLTableRowElement>('tr.totals');
    if (!row) return;
    [...row.cells].forEach((th, i) => {
      if (th.dataset.all === undefined && th.dataset.v !== undefined) {
        th.dataset.all = th.dataset.v;
        th.dataset.allText = th.textContent ?? '';
      }
      if (th.dataset.all === undefined) {
        if ((th as HTMLTableHeaderCellElement).scope === 'row') th.textContent = filtered ? 'Total of shown rows' : 'Total';
        return;
      }
      if (!filtered) {
        th.dataset.v = th.dataset.all;
        th.textContent = th.dataset.allText ?? '';
        return;
      }
      let sum = 0n;
      for (const r of bodyOf(table).rows) {
        if (r.hidden) continue;
        const v = micros(r.cells[i] ? (r.cells[i].dataset.v ?? '') : '');
        if (v !== null) sum += v;
      }
      const abs = sum < 0n ? -sum : sum;
      const exact = `${sum < 0n ? '-' : ''}${(abs / 1000000n).toString()}.${(abs % 1000000n).toString().padStart(6, '0')}`;
      th.dataset.v = exact;
      th.textContent =
        th.dataset.fmt === 'usd'
          ? moneyText(sum, th.dataset.signed === '1')
          : Number(exact).toLocaleString('en-US', { maximumFractionDigits: 2 });
    });
  }

  /** The element before `box` when it has `className`. */
  const before = (box: Element, className: string) => {
    const e = box.previousElementSibling;
    return e && e.classList.contains(className) ? e : null;
  };

  // a table wider than its section says how many columns are out of sight and which way to scroll
  function cue(box: HTMLElement) {
    const note = before(box, 'cue') as HTMLElement | null;
    if (!note) return;
    const left = box.getBoundingClientRect().left + box.clientLeft;
    const right = left + box.clientWidth;
    const pinned = (th: Element) => ['pin-l', 'pin-r', 'pin-t', 'pin-s', 'pin-c'].some((c) => th.classList.contains(c));
    const heads = [...box.querySelectorAll('thead tr.names th, #explore-table thead th')].filter(
      (th) => th.getClientRects().length > 0 && !pinned(th),
    );
    // a column counts as out of sight when any of it is
    const after = heads.filter((th) => th.getBoundingClientRect().right > right + 1).length;
    const ahead = heads.filter((th) => th.getBoundingClientRect().left < left - 1).length;
    note.hidden = after + ahead === 0;
    note.textContent =
      (ahead ? `← ${ahead} column${ahead > 1 ? 's' : ''} to the left` : '') +
      (ahead && after ? ' · ' : '') +
      (after ? `${after} more column${after > 1 ? 's' : ''} to the right – scroll the table sideways →` : '');
  }

  // on a phone, beside the name and the amount, as many other columns as fit: in their order, ids and accounts
  // last; a wrapping column counted at its narrowest. The button says how many are left out.
  const phone = window.matchMedia('(max-width: 640px)');
  function fit(box: HTMLElement) {
    const table = box.querySelector<HTMLTableElement>('table.data');
    const button = box.previousElementSibling && box.previousElementSibling.previousElementSibling;
    if (!table || !button || !button.classList.contains('all-cols')) return;
    const heads = [...table.tHead!.rows[0]!.cells];
    const column = (i: number) => [...table.rows].map((r) => r.cells[i]).filter((c): c is Cell => Boolean(c));
    box.classList.add('fitted');
    table.querySelectorAll('.off').forEach((c) => c.classList.remove('off'));
    if (!phone.matches) return;
    const first = bodyOf(table).rows[0];
    // a column that may break its lines (long text, an instant) counted at its narrowest
    const width = (th: Cell, i: number) => {
      const td = first && first.cells[i];
      const wraps = td && (td.classList.contains('wrap') || td.classList.contains('when'));
      return wraps ? parseFloat(getComputedStyle(td).minWidth) : th.getBoundingClientRect().width;
    };
    const widths = heads.map(width);
    let used = heads.reduce((a, th, i) => a + (th.classList.contains('minor') ? 0 : widths[i]!), 0);
    const order = heads.map((_th, i) => i).filter((i) => heads[i]!.classList.contains('minor'));
    const lesser = (i: number) => Number(heads[i]!.classList.contains('lesser'));
    order.sort((a, b) => lesser(a) - lesser(b) || a - b);
    // a narrow column after a wide one left out still comes in; an id or account only when nothing before it was
    // left out
    const off: number[] = [];
    for (const i of order) {
      if (used + widths[i]! <= box.clientWidth && !(off.length && lesser(i))) used += widths[i]!;
      else off.push(i);
    }
    off.forEach((i) => column(i).forEach((c) => c.classList.add('off')));
    // a measure is an estimate: while the table still spills, the last column let in goes too
    const shown = order.filter((i) => !off.includes(i));
    while (box.scrollWidth > box.clientWidth + 1 && shown.length) {
      const i = shown.pop()!;
      column(i).forEach((c) => c.classList.add('off'));
      off.push(i);
    }
    if (!box.classList.contains('show-all')) button.textContent = off.length ? `All columns (${off.length} more)` : 'All columns';
  }

  const cues = () =>
    document.querySelectorAll<HTMLElement>('.scroll').forEach((box) => {
      fit(box);
      cue(box);
    });
  window.addEventListener('load', cues);
  window.addEventListener('resize', cues);
  const onScroll = (e: Event) => {
    if (e.target instanceof HTMLElement && e.target.matches('.scroll')) cue(e.target);
  };
  document.addEventListener('scroll', onScroll, { capture: true, passive: true });

  const csvField = (t: string) => (/[",\r\n]/.test(t) || /^\s|\s$/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  // CSV that is data, never code: a text cell a spreadsheet would read as a formula gets a leading ' (the rule of
  // src/util/csv-cell.ts); a number column's cells (class num) stay numbers, a negative one included
  const formulaStart = new RegExp(FORMULA_START_SOURCE);
  const textField = (t: string) => csvField(formulaStart.test(t) ? `'${t}` : t);
  function csv(table: HTMLTableElement) {
    const head = [...table.querySelectorAll<Cell>('thead tr.names th')].map((th) => textField(th.dataset.field ?? ''));
    const lines = [head.join(',')];
    for (const r of bodyOf(table).rows) {
      if (r.hidden) continue;
      const fields = [...r.cells].map((td) => (td.classList.contains('num') ? csvField : textField)(td.dataset.v ?? ''));
      lines.push(fields.join(','));
    }
    return lines.map((l) => `${l}\r\n`).join('');
  }

  document.addEventListener('click', (e) => {
    if (!(e.target instanceof Element)) return;
    const target = e.target;
    const th = target.closest('thead tr.names th');
    if (th && target.closest('button')) {
      const table = th.closest('table')!;
      sortBy(table, [...th.parentNode!.children].indexOf(th), th);
      return;
    }
    const dl = target.closest<HTMLElement>('button[data-csv]');
    if (dl) {
      const table = dl.closest('section')!.querySelector<HTMLTableElement>('table.data')!;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([csv(table)], { type: 'text/csv' }));
      a.download = dl.dataset.csv ?? '';
      document.body.appendChild(a);
      a.click();
      a.remove();
      return;
    }
    const all = target.closest('button.all-cols');
    if (all) {
      let box = all.nextElementSibling;
      while (box && !box.classList.contains('scroll')) box = box.nextElementSibling;
      if (box instanceof HTMLElement) {
        const on = box.classList.toggle('show-all');
        all.setAttribute('aria-pressed', String(on));
        all.textContent = on ? 'Fewer columns' : 'All columns';
        if (!on) fit(box);
        cue(box);
      }
      return;
    }
    const link = target.closest<HTMLAnchorElement>('a[data-filter]');
    if (link && link.hash) {
      const section = document.getElementById(link.hash.slice(1));
      const input = section && section.querySelector<HTMLInputElement>('input[type=search]');
      if (section && input) {
        input.value = link.dataset.filter ?? '';
        filter(section, input.value);
      }
    }
  });

  document.addEventListener('input', (e) => {
    if (!(e.target instanceof HTMLInputElement)) return;
    const input = e.target;
    if (input.matches('input[type=search][data-filter-table]')) filter(input.closest('section')!, input.value);
    // a day typed in From or To is a custom range: a preset left selected would win over it
    if (input.matches('form.explore input[name=from], form.explore input[name=to]')) {
      const preset = input.form?.querySelector<HTMLSelectElement>('select[name=preset]');
      if (preset) preset.value = '';
    }
  });
})();
