// The page's own style and script: static text, the same in every report and every `serve` page, so the
// Content-Security-Policy can allow exactly these two by hash and nothing else – no inline script from data, no
// request to anywhere. Plain DOM, no framework: sorting, filtering, CSV download and section links in ~80 lines.
// One file over 250 lines on purpose: the style and the script are hashed together into the page's CSP, so they
// are kept as the two texts they are; moving the script into a typed, bundled file is issue 41's work.
import { createHash } from 'node:crypto';
import { FORMULA_START_SOURCE } from '../util/csv-cell.ts';

export const PAGE_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --head: #f3f5f8;
  --accent: #0b5cad; --up: #b42318; --down: #1a7f37; --banner: #fff4e5; --banner-fg: #7a3b00; --card: #ffffff;
  --budget: #c00000; --forecast: #d55e00; --forecast-ink: #a84300; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0f1419; --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --head: #161b22; --accent: #6cb6ff;
    --up: #ff7b72; --down: #56d364; --banner: #3d2600; --banner-fg: #ffd8a8; --card: #161b22;
    --budget: #ff7b72; --forecast: #f0883e; --forecast-ink: #ffa657; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; background: var(--bg); color: var(--fg); }
header.page { padding: 16px 24px 8px; border-bottom: 1px solid var(--line); }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 4px; } h3 { font-size: 15px; margin: 18px 0 6px; }
p.sub, p.note { color: var(--muted); margin: 2px 0 8px; }
.banner { background: var(--banner); color: var(--banner-fg); font-weight: 700; padding: 6px 12px; border-radius: 4px; display: inline-block; margin: 6px 0; }
nav.sections { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 8px 0 0; }
nav.sections a, a { color: var(--accent); }
nav.sections a[aria-current="page"], nav a[aria-current="page"] { color: var(--fg); font-weight: 650; text-decoration: none; }
main { padding: 0 24px 32px; max-width: 1400px; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 10px; margin: 8px 0; }
.figure { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; background: var(--card); }
.figure .label { color: var(--muted); font-size: 12px; } .figure .value { font-size: 20px; font-weight: 650; }
.figure .fnote { color: var(--muted); font-size: 12px; }
/* charts share the width: side by side where two fit, one per row below; they draw in the page's colours (the
   classes override the SVG's own light colours, which the workbook's PNGs keep) */
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 520px), 1fr)); gap: 12px; margin: 12px 0; }
.chart { margin: 0; min-width: 0; border: 1px solid var(--line); border-radius: 6px; background: var(--card); }
.chart svg { display: block; width: 100%; height: auto; }
.chart .c-bg { fill: var(--card); } .chart .c-ink { fill: var(--fg); } .chart .c-muted { fill: var(--muted); }
.chart .c-grid { stroke: var(--line); } .chart .c-axis { stroke: var(--muted); }
/* the budget and forecast lines and their labels, 4.5:1 (text) and 3:1 (line) against the chart in either scheme */
.chart .c-budget, .chart .c-threshold { stroke: var(--budget); } .chart .c-budget-ink { fill: var(--budget); }
.chart .c-forecast { stroke: var(--forecast); } .chart .c-forecast-ink { fill: var(--forecast-ink); }
/* a partial period's bar (the explorer's first or last week cut by the range, the day still loading): lighter, with
   stripes in the chart's background colour, so it reads as "not all of it" in either scheme */
.chart .c-hatch { stroke: var(--card); }
th .part { display: block; color: var(--muted); font-size: 12px; font-weight: 400; }
/* a chart alone in its row is drawn no bigger than two side by side would be: its labels the size of theirs */
.chart { max-width: 960px; }
figcaption.chart-cue { display: none; }
.tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
.tools input { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); min-width: 16em; }
.tools input[name="period"], .tools input[name="filter"] { min-width: 20em; }
.tools button, th button { font: inherit; cursor: pointer; }
.tools a.button { padding: 4px 10px; border: 1px solid var(--line); border-radius: 4px; background: var(--head); color: var(--fg); text-decoration: none; }
.tools button { padding: 4px 10px; border: 1px solid var(--line); border-radius: 4px; background: var(--head); color: var(--fg); }
.scroll { overflow: auto; max-height: 75vh; border: 1px solid var(--line); border-radius: 6px; }
/* a log of tall rows (the alert history) scrolls with the page: a box of 75vh showed one event and a bit */
.scroll.stack { max-height: none; }
/* a wide table scrolls inside its section and says so; its name and amount columns stay in view (pin-l, pin-r) */
.cue { color: var(--muted); font-size: 12px; }
.pin-l, .pin-r { position: sticky; background: var(--bg); }
.pin-l { left: 0; box-shadow: inset -1px 0 0 var(--line); } .pin-r { right: 0; box-shadow: inset 1px 0 0 var(--line); }
thead .pin-l, thead .pin-r { background: var(--head); z-index: 2; }
/* the explorer's Total, Share and Change: three columns pinned right, each as wide as it is set here */
.pin-t, .pin-s, .pin-c { position: sticky; background: var(--bg); }
.pin-c { right: 0; width: 6.5em; min-width: 6.5em; } .pin-s { right: 6.5em; width: 6.5em; min-width: 6.5em; }
.pin-t { right: 13em; box-shadow: inset 1px 0 0 var(--line); }
thead .pin-t, thead .pin-s, thead .pin-c { background: var(--head); z-index: 2; } tfoot .pin-t, tfoot .pin-s, tfoot .pin-c { font-weight: 650; }
tbody tr:hover .pin-l, tbody tr:hover .pin-r { background: var(--head); }
td.wrap { white-space: normal; min-width: 16em; max-width: 40em; overflow-wrap: anywhere; } td.long { min-width: 28em; max-width: 48em; }
/* a table with wrapping text fits its section: the text column takes what the others leave */
table.fit { width: 100%; }
button.all-cols { display: none; }
table.facts { width: auto; min-width: 0; } table.facts td { white-space: normal; overflow-wrap: anywhere; }
pre { overflow-x: auto; }
ul.examples pre { margin: 2px 0 10px; padding: 6px 8px; background: var(--head); border-radius: 4px; }
details > summary { cursor: pointer; padding: 2px 0; } details > .scroll { margin: 4px 0 12px; }
table { border-collapse: separate; border-spacing: 0; width: max-content; min-width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
thead th { position: sticky; top: 0; background: var(--head); z-index: 1; }
thead tr.totals th { top: 2.1em; font-weight: 650; }
th button { all: unset; cursor: pointer; font-weight: 650; } th button:focus-visible { outline: 2px solid var(--accent); }
th[aria-sort="ascending"] button::after { content: " ▲"; } th[aria-sort="descending"] button::after { content: " ▼"; }
.num { text-align: right; } .up { color: var(--up); } .down { color: var(--down); } .sim { color: var(--up); font-weight: 700; }
tbody tr:hover { background: var(--head); }
.sql textarea { width: 100%; min-height: 8em; font: 13px ui-monospace, "DejaVu Sans Mono", monospace; background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 4px; padding: 6px; }
.error { color: var(--up); font-weight: 600; }
@media (max-width: 640px) {
  header.page { padding: 12px 10px 6px; } main { padding: 0 10px 24px; }
  .tools input { min-width: 0; flex: 1 1 10em; } td.wrap, td.long { min-width: 12em; }
  /* a phone shows each table's name and amount, and the page script (fit) as many other columns as fit beside them
     ('off' the rest); without the script only name and amount; "All columns" brings back the rest */
  button.all-cols { display: inline-block; font: inherit; margin: 0 0 6px; padding: 3px 10px; border: 1px solid var(--line); border-radius: 4px; background: var(--head); color: var(--fg); }
  .scroll:not(.show-all):not(.fitted) .minor, .scroll.fitted:not(.show-all) .off { display: none; }
  .pin-s, .pin-c { position: static; } .pin-t { right: 0; }
  .scroll.fitted:not(.show-all) table.data { width: 100%; } .scroll.fitted:not(.show-all) .when { white-space: normal; min-width: 7em; }
  /* a log (the alert history) is a card per row, every field named */
  .scroll.stack thead { display: none; }
  .scroll.stack table, .scroll.stack tbody, .scroll.stack tr, .scroll.stack td { display: block; width: auto; min-width: 0; max-width: none; }
  .scroll.stack tr { padding: 6px 0; border-bottom: 1px solid var(--line); }
  .scroll.stack td { white-space: normal; overflow-wrap: anywhere; border: none; box-shadow: none; padding: 1px 10px; position: static; text-align: left; }
  .scroll.stack td::before { content: attr(data-label) ": "; color: var(--muted); }
  .figures { grid-template-columns: 1fr 1fr; } .figure .value { font-size: 17px; }
  /* a chart keeps its drawn size, labels readable, and scrolls sideways under a line saying so */
  .chart { overflow-x: auto; } .chart svg { width: auto; max-width: none; }
  figcaption.chart-cue { display: block; position: sticky; left: 0; padding: 4px 8px 0; }
  .tools label { display: flex; flex: 1 1 100%; gap: 6px; align-items: center; } .tools label input { flex: 1 1 auto; min-width: 0; }
}
@media print {
  @page { size: A4 landscape; margin: 10mm; }
  body { font-size: 10px; background: #fff; color: #000; } .tools, nav.sections, form { display: none; }
  .scroll { max-height: none; overflow: visible; border: none; } table { width: 100%; min-width: 0; }
  th, td { white-space: normal; padding: 2px 4px; } thead th, .pin-l, .pin-r { position: static; } .cue { display: none; }
  section { break-inside: auto; }
  .chart { break-inside: avoid; }
}
`;

export const PAGE_JS = `
(() => {
  const key = (td) => td ? (td.dataset.v ?? td.textContent) : '';
  const numeric = (th) => th.classList.contains('num');
  function sortBy(table, col, th) {
    const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    table.querySelectorAll('thead th[aria-sort]').forEach((h) => h.setAttribute('aria-sort', 'none'));
    th.setAttribute('aria-sort', dir);
    const body = table.tBodies[0];
    const rows = [...body.rows];
    const sign = dir === 'ascending' ? 1 : -1;
    const cmp = numeric(th)
      ? (a, b) => { const x = key(a.cells[col]), y = key(b.cells[col]); if (x === '') return 1; if (y === '') return -1; return sign * (Number(x) - Number(y)); }
      : (a, b) => sign * key(a.cells[col]).localeCompare(key(b.cells[col]));
    rows.sort(cmp).forEach((r) => body.appendChild(r));
  }
  function filter(section, text) {
    const table = section.querySelector('table.data');
    if (!table) return;
    const words = text.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    for (const r of table.tBodies[0].rows) {
      const hay = r.textContent.toLowerCase();
      const ok = words.every((w) => hay.includes(w));
      r.hidden = !ok;
      if (ok) shown++;
    }
    const count = section.querySelector('.count');
    if (count) count.textContent = words.length ? shown + ' of ' + table.tBodies[0].rows.length + ' rows' : '';
    totals(table, words.length > 0);
  }
  // the Total row follows the filter: exact sums of the shown rows (decimal strings as integer micros, no float)
  const micros = (t) => {
    const m = /^(-?)(\\d*)(?:\\.(\\d*))?$/.exec(t.trim());
    if (!m) return null;
    const v = BigInt((m[2] || '0') + ((m[3] || '') + '000000').slice(0, 6));
    return m[1] ? -v : v;
  };
  const group = (d) => d.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',');
  function moneyText(v, signed) {
    const neg = v < 0n, abs = neg ? -v : v, cents = (abs + 5000n) / 10000n;
    const t = '$' + group((cents / 100n).toString()) + '.' + (cents % 100n).toString().padStart(2, '0');
    return neg && cents > 0n ? '-' + t : signed && cents > 0n ? '+' + t : t;
  }
  function totals(table, filtered) {
    const row = table.tHead.querySelector('tr.totals');
    if (!row) return;
    [...row.cells].forEach((th, i) => {
      if (th.dataset.all === undefined && th.dataset.v !== undefined) { th.dataset.all = th.dataset.v; th.dataset.allText = th.textContent; }
      if (th.dataset.all === undefined) { if (th.scope === 'row') th.textContent = filtered ? 'Total of shown rows' : 'Total'; return; }
      if (!filtered) { th.dataset.v = th.dataset.all; th.textContent = th.dataset.allText; return; }
      let sum = 0n;
      for (const r of table.tBodies[0].rows) if (!r.hidden) { const v = micros(r.cells[i] ? r.cells[i].dataset.v ?? '' : ''); if (v !== null) sum += v; }
      const abs = sum < 0n ? -sum : sum;
      const exact = (sum < 0n ? '-' : '') + (abs / 1000000n).toString() + '.' + (abs % 1000000n).toString().padStart(6, '0');
      th.dataset.v = exact;
      th.textContent = th.dataset.fmt === 'usd' ? moneyText(sum, th.dataset.signed === '1') : Number(exact).toLocaleString('en-US', { maximumFractionDigits: 2 });
    });
  }
  // a table wider than its section says how many columns are out of sight and which way to scroll
  function cue(box) {
    const note = box.previousElementSibling && box.previousElementSibling.classList.contains('cue') ? box.previousElementSibling : null;
    if (!note) return;
    const left = box.getBoundingClientRect().left + box.clientLeft;
    const right = left + box.clientWidth;
    const pinned = (th) => ['pin-l', 'pin-r', 'pin-t', 'pin-s', 'pin-c'].some((c) => th.classList.contains(c));
    const heads = [...box.querySelectorAll('thead tr.names th, #explore-table thead th')].filter((th) => th.getClientRects().length > 0 && !pinned(th));
    // a column counts as out of sight when any of it is
    const after = heads.filter((th) => th.getBoundingClientRect().right > right + 1).length;
    const before = heads.filter((th) => th.getBoundingClientRect().left < left - 1).length;
    note.hidden = after + before === 0;
    note.textContent = (before ? '← ' + before + ' column' + (before > 1 ? 's' : '') + ' to the left' : '') + (before && after ? ' · ' : '') +
      (after ? after + ' more column' + (after > 1 ? 's' : '') + ' to the right – scroll the table sideways →' : '');
  }
  // on a phone, beside the name and the amount, as many other columns as fit: in their order, ids and accounts
  // last; a wrapping column counted at its narrowest. The button says how many are left out.
  const phone = window.matchMedia('(max-width: 640px)');
  function fit(box) {
    const table = box.querySelector('table.data');
    const button = box.previousElementSibling && box.previousElementSibling.previousElementSibling;
    if (!table || !button || !button.classList.contains('all-cols')) return;
    const heads = [...table.tHead.rows[0].cells];
    const column = (i) => [...table.rows].map((r) => r.cells[i]).filter(Boolean);
    box.classList.add('fitted');
    table.querySelectorAll('.off').forEach((c) => c.classList.remove('off'));
    if (!phone.matches) return;
    const first = table.tBodies[0].rows[0];
    // a column that may break its lines (long text, an instant) counted at its narrowest
    const width = (th, i) => { const td = first && first.cells[i]; return td && (td.classList.contains('wrap') || td.classList.contains('when')) ? parseFloat(getComputedStyle(td).minWidth) : th.getBoundingClientRect().width; };
    const widths = heads.map(width);
    let used = heads.reduce((a, th, i) => a + (th.classList.contains('minor') ? 0 : widths[i]), 0);
    const order = heads.map((th, i) => i).filter((i) => heads[i].classList.contains('minor'));
    order.sort((a, b) => heads[a].classList.contains('lesser') - heads[b].classList.contains('lesser') || a - b);
    // a narrow column after a wide one left out still comes in; an id or account only when nothing before it was left out
    const off = [];
    for (const i of order) {
      if (used + widths[i] <= box.clientWidth && !(off.length && heads[i].classList.contains('lesser'))) used += widths[i];
      else off.push(i);
    }
    off.forEach((i) => column(i).forEach((c) => c.classList.add('off')));
    // a measure is an estimate: while the table still spills, the last column let in goes too
    const shown = order.filter((i) => !off.includes(i));
    while (box.scrollWidth > box.clientWidth + 1 && shown.length) { const i = shown.pop(); column(i).forEach((c) => c.classList.add('off')); off.push(i); }
    if (!box.classList.contains('show-all')) button.textContent = off.length ? 'All columns (' + off.length + ' more)' : 'All columns';
  }
  const cues = () => document.querySelectorAll('.scroll').forEach((box) => { fit(box); cue(box); });
  window.addEventListener('load', cues);
  window.addEventListener('resize', cues);
  document.addEventListener('scroll', (e) => { if (e.target instanceof Element && e.target.matches('.scroll')) cue(e.target); }, { capture: true, passive: true });
  const csvField = (t) => /[",\\r\\n]/.test(t) || /^\\s|\\s$/.test(t) ? '"' + t.replace(/"/g, '""') + '"' : t;
  // CSV that is data, never code: a text cell a spreadsheet would read as a formula gets a leading ' (the rule of
  // src/util/csv-cell.ts); a number column's cells (class num) stay numbers, a negative one included
  const formulaStart = new RegExp(${JSON.stringify(FORMULA_START_SOURCE)});
  const textField = (t) => csvField(formulaStart.test(t) ? "'" + t : t);
  function csv(table) {
    const head = [...table.querySelectorAll('thead tr.names th')].map((th) => textField(th.dataset.field));
    const lines = [head.join(',')];
    for (const r of table.tBodies[0].rows) if (!r.hidden) lines.push([...r.cells].map((td) => td.classList.contains('num') ? csvField(td.dataset.v ?? '') : textField(td.dataset.v ?? '')).join(','));
    return lines.map((l) => l + '\\r\\n').join('');
  }
  document.addEventListener('click', (e) => {
    const th = e.target.closest('thead tr.names th');
    if (th && e.target.closest('button')) {
      const table = th.closest('table');
      sortBy(table, [...th.parentNode.children].indexOf(th), th);
      return;
    }
    const dl = e.target.closest('button[data-csv]');
    if (dl) {
      const table = dl.closest('section').querySelector('table.data');
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([csv(table)], { type: 'text/csv' }));
      a.download = dl.dataset.csv;
      document.body.appendChild(a); a.click(); a.remove();
      return;
    }
    const all = e.target.closest('button.all-cols');
    if (all) {
      let box = all.nextElementSibling;
      while (box && !box.classList.contains('scroll')) box = box.nextElementSibling;
      if (box) { const on = box.classList.toggle('show-all'); all.setAttribute('aria-pressed', String(on)); all.textContent = on ? 'Fewer columns' : 'All columns'; if (!on) fit(box); cue(box); }
      return;
    }
    const link = e.target.closest('a[data-filter]');
    if (link && link.hash) {
      const target = document.getElementById(link.hash.slice(1));
      const input = target && target.querySelector('input[type=search]');
      if (input) { input.value = link.dataset.filter; filter(target, input.value); }
    }
  });
  document.addEventListener('input', (e) => {
    if (e.target.matches('input[type=search][data-filter-table]')) filter(e.target.closest('section'), e.target.value);
    // a day typed in From or To is a custom range: a preset left selected would win over it
    if (e.target.matches('form.explore input[name=from], form.explore input[name=to]')) { const p = e.target.form.querySelector('select[name=preset]'); if (p) p.value = ''; }
  });
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The policy of every page: nothing may be fetched (default-src 'none'), images only from data: URIs, and only the
 * page's own style and script run. `formAction` is 'self' for `serve` (period picker, SQL page), 'none' for a file.
 */
export function contentSecurityPolicy(formAction: "'self'" | "'none'"): string {
  return [
    "default-src 'none'",
    "img-src data:",
    `style-src ${sha256(PAGE_CSS)}`,
    `script-src ${sha256(PAGE_JS)}`,
    "base-uri 'none'",
    `form-action ${formAction}`,
  ].join('; ');
}
