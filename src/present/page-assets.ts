// The page's own style and script: static text, the same in every report and every `serve` page, so the
// Content-Security-Policy can allow exactly these two by hash and nothing else – no inline script from data, no
// request to anywhere. The script is written in TypeScript against the DOM (browser/page-script.ts) and bundled by
// scripts/build.js into page-script.generated.ts; this file holds the style and the policy that hashes both.
import { createHash } from 'node:crypto';
import { PAGE_JS } from './page-script.generated.ts';

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

// the script is TypeScript (browser/page-script.ts), bundled at build time: inlined as that text and hashed here
export { PAGE_JS };

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
