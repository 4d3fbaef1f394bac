// What a person would see wrong on a page, read from the laid-out page in Chromium (issue 38 §2): text cut off by a box
// that hides it, text over other text, a money column or text out of sight to the side with no cue saying so, a table
// whose headline amount is not in view, a placeholder wider than its field, and chart labels too small to read or too
// faint against the chart (WCAG's 4.5:1 for text, 3:1 for a line that carries a figure, in either colour scheme).
// Each problem is one line naming the page's text, so a failing test says what to look at.
import type { Page } from 'playwright-core';

/** The smallest chart label a person reads without zooming, in CSS pixels as drawn. */
export const MIN_CHART_FONT_PX = 9;

export interface LayoutLimits {
  minChartFontPx: number;
  /** Largest ratio between two charts' label sizes on one page. */
  maxChartFontRatio: number;
}

/** Every problem of the page as shown now (it is not scrolled): [] when there is none. */
export async function layoutProblems(page: Page, limits: Partial<LayoutLimits> = {}): Promise<string[]> {
  const l: LayoutLimits = { minChartFontPx: MIN_CHART_FONT_PX, maxChartFontRatio: 1.5, ...limits };
  return page.evaluate(check, l);
}

// runs in the browser: its own globals, untyped here (the project has no DOM library)
/* eslint-disable @typescript-eslint/no-explicit-any */
function check(l: LayoutLimits): string[] {
  const doc = (globalThis as any).document;
  const win = globalThis as any;
  const problems: string[] = [];
  const say = (s: string) => problems.length < 40 && problems.push(s);
  const short = (t: string) => JSON.stringify(t.replace(/\s+/g, ' ').trim().slice(0, 50));
  const tol = 1.5;

  const vw = doc.documentElement.clientWidth;
  if (doc.documentElement.scrollWidth > vw + 1) say(`the page scrolls sideways by ${doc.documentElement.scrollWidth - vw} px`);

  // the boxes that clip an element: [element, 'hide' | 'scroll']
  const clipCache = new Map<any, { el: any; kind: 'hide' | 'scroll' }[]>();
  function clippers(el: any): { el: any; kind: 'hide' | 'scroll' }[] {
    if (!el || el === doc.body || el === doc.documentElement) return [];
    const known = clipCache.get(el);
    if (known) return known;
    const s = win.getComputedStyle(el);
    const own = [s.overflowX, s.overflowY].some((o: string) => o !== 'visible') ? [{ el, kind: [s.overflowX, s.overflowY].some((o: string) => o === 'auto' || o === 'scroll') ? ('scroll' as const) : ('hide' as const) }] : [];
    const all = [...own, ...clippers(el.parentElement)];
    clipCache.set(el, all);
    return all;
  }
  const inner = (el: any) => {
    const r = el.getBoundingClientRect();
    return { left: r.left + el.clientLeft, top: r.top + el.clientTop, right: r.left + el.clientLeft + el.clientWidth, bottom: r.top + el.clientTop + el.clientHeight };
  };
  // a table box that says some of its columns are to the side: the cue line, or a phone's "All columns"
  const cued = (box: any) =>
    [box.previousElementSibling, box.querySelector(':scope > .cue')].some((cue: any) => !!cue && cue.classList.contains('cue') && !cue.hidden && cue.getClientRects().length > 0);

  type Line = { r: any; text: string; node: any };
  const lines: Line[] = [];
  const walker = doc.createTreeWalker(doc.body, 4 /* SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text: string = node.textContent ?? '';
    if (!text.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, select, option, title, textarea')) continue;
    // a closed <details> keeps its boxes laid out but unpainted: only its summary shows
    const closed = parent.closest('details:not([open])');
    if (closed && !parent.closest('summary')) continue;
    const range = doc.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r: any) => r.width > 0.5 && r.height > 0.5);
    if (rects.length === 0) continue;
    const inSvg = parent instanceof win.SVGElement;
    if (inSvg) rects.splice(0, rects.length, parent.getBoundingClientRect());
    if (win.getComputedStyle(parent).visibility === 'hidden') continue;
    let visible = true;
    for (const r of rects) {
      for (const c of clippers(parent)) {
        const b = inner(c.el);
        const outX = r.left < b.left - tol || r.right > b.right + tol;
        const outY = r.top < b.top - tol || r.bottom > b.bottom + tol;
        if (!outX && !outY) continue;
        visible = false;
        if (c.kind === 'hide') say(`text cut off by its box: ${short(text)}`);
        // code scrolls sideways in its own box, as code does (its scroll bar shows)
        else if (c.el.tagName === 'PRE') continue;
        // a table box scrolls: down is plain to see, to the side needs the cue
        else if (outX && !outY && !cued(c.el)) {
          if (r.right > b.right + tol && r.left < b.right - tol) say(`text cut at a scrolling box's edge with no cue: ${short(text)}`);
          else say(`text out of sight to the side with no cue: ${short(text)}`);
        }
        break;
      }
      if (!visible) break;
      if (r.right > vw + tol || r.left < -tol) {
        say(`text off the screen: ${short(text)}`);
        visible = false;
        break;
      }
    }
    if (visible) for (const r of rects) lines.push({ r, text, node });
  }

  // text over text: boxes bucketed on a grid, compared within a bucket
  const grid = new Map<string, number[]>();
  const cell = 48;
  lines.forEach((ln, i) => {
    for (let x = Math.floor(ln.r.left / cell); x <= Math.floor(ln.r.right / cell); x++)
      for (let y = Math.floor(ln.r.top / cell); y <= Math.floor(ln.r.bottom / cell); y++) {
        const k = `${x},${y}`;
        const list = grid.get(k) ?? [];
        list.push(i);
        grid.set(k, list);
      }
  });
  const seen = new Set<string>();
  for (const list of grid.values())
    for (let a = 0; a < list.length; a++)
      for (let b = a + 1; b < list.length; b++) {
        const i = list[a]!;
        const j = list[b]!;
        const p = lines[i]!;
        const q = lines[j]!;
        if (p.node === q.node) continue;
        // a pinned name or amount covers, opaque, what scrolls under it: that text is hidden (the cue says so), not garbled
        const pin = (ln: Line) => ln.node.parentElement.closest('.pin-l, .pin-r, .pin-t, .pin-s, .pin-c');
        if (!pin(p) !== !pin(q) && p.node.parentElement.closest('.scroll') === q.node.parentElement.closest('.scroll')) continue;
        const w = Math.min(p.r.right, q.r.right) - Math.max(p.r.left, q.r.left);
        const h = Math.min(p.r.bottom, q.r.bottom) - Math.max(p.r.top, q.r.top);
        // glyph boxes of neighbouring lines touch; a real overlap covers part of a glyph
        if (w > 2 && h > Math.min(p.r.height, q.r.height) * 0.3) {
          const key = `${Math.min(i, j)} ${Math.max(i, j)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const chart = p.node.parentElement.closest('figure')?.getAttribute('aria-label');
          say(`text over text${chart ? ` in chart ${short(chart)}` : ''}: ${short(p.text)} and ${short(q.text)}`);
        }
      }

  // a table's headline amount (pinned right; the explorer's Total) is in view, as is every money
  // cell unless the cue says columns are to the side
  for (const box of doc.querySelectorAll('.scroll')) {
    const table = box.querySelector('table');
    if (!table || box.getClientRects().length === 0) continue;
    const b = inner(box);
    const heads = [...(table.tHead?.rows[0]?.cells ?? [])] as any[];
    const row = table.tBodies[0]?.rows[0];
    if (!row) continue;
    const name = box.getAttribute('aria-label');
    const headline = heads.flatMap((th, i) => (th.classList.contains('pin-r') || (table.id === 'explore-table' && /^Total$/.test(th.textContent.trim())) ? [i] : []));
    for (const i of headline) {
      const td = row.cells[i - (heads.length - row.cells.length)];
      if (!td || td.getClientRects().length === 0) {
        say(`${name}: its headline amount ${short(heads[i].textContent)} is hidden`);
        continue;
      }
      const r = td.getBoundingClientRect();
      if (r.left < Math.max(b.left, 0) - tol || r.right > Math.min(b.right, vw) + tol) say(`${name}: its headline amount ${short(heads[i].textContent)} is out of view`);
    }
    if (!cued(box))
      for (const td of row.cells as any) {
        if (!/^[-+]?\$/.test((td.textContent ?? '').trim()) || td.getClientRects().length === 0) continue;
        const r = td.getBoundingClientRect();
        if (r.left < b.left - tol || r.right > b.right + tol) say(`${name}: a money column (${short(td.textContent)}) is off to the side with no cue`);
      }
  }

  // a placeholder or value wider than its field is cut off as surely as text in a box
  const canvas = doc.createElement('canvas').getContext('2d');
  for (const input of doc.querySelectorAll('input:not([type]), input[type=text], input[type=search]')) {
    if (input.getClientRects().length === 0) continue;
    const s = win.getComputedStyle(input);
    canvas.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const text = input.value || input.placeholder;
    const room = input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    if (text && canvas.measureText(text).width > room + 1) say(`field too narrow for ${short(text)}`);
  }

  // chart labels: big enough as drawn, and against the chart's background 4.5:1 (text) or 3:1 (a figure's line)
  const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const lum = (c: number[]) => {
    const [r, g, b2] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b2!;
  };
  const contrast = (a: string, b: string) => {
    const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((m, n) => n - m);
    return (x! + 0.05) / (y! + 0.05);
  };
  const sizes: { chart: string; px: number }[] = [];
  for (const svg of doc.querySelectorAll('figure.chart svg, .charts svg')) {
    if (svg.getClientRects().length === 0) continue;
    const vb = svg.viewBox?.baseVal;
    const scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
    const bgEl = svg.querySelector('.c-bg');
    const bg = bgEl ? win.getComputedStyle(bgEl).fill : win.getComputedStyle(doc.body).backgroundColor;
    const title = svg.closest('figure')?.getAttribute('aria-label') ?? 'a chart';
    const own: number[] = [];
    for (const t of svg.querySelectorAll('text')) {
      const txt = t.textContent ?? '';
      if (!txt.trim()) continue;
      const s = win.getComputedStyle(t);
      const px = parseFloat(s.fontSize) * scale;
      own.push(px);
      if (px < l.minChartFontPx) say(`chart ${short(title)}: label ${short(txt)} drawn at ${px.toFixed(1)} px`);
      const ratio = contrast(s.fill, bg);
      if (ratio < 4.5) say(`chart ${short(title)}: label ${short(txt)} at contrast ${ratio.toFixed(2)}:1`);
    }
    for (const line of svg.querySelectorAll('line[stroke-dasharray], path[stroke-dasharray], polyline')) {
      const s = win.getComputedStyle(line);
      if (s.stroke === 'none' || !s.stroke) continue;
      const ratio = contrast(s.stroke, bg);
      if (ratio < 3) say(`chart ${short(title)}: a line at contrast ${ratio.toFixed(2)}:1`);
    }
    own.sort((a, b2) => a - b2);
    if (own.length) sizes.push({ chart: title, px: own[Math.floor(own.length / 2)]! });
  }
  if (sizes.length > 1) {
    const min = sizes.reduce((a, s) => (s.px < a.px ? s : a));
    const max = sizes.reduce((a, s) => (s.px > a.px ? s : a));
    if (max.px / min.px > l.maxChartFontRatio) say(`chart ${short(max.chart)} labels ${(max.px / min.px).toFixed(1)}× the size of ${short(min.chart)}'s`);
  }
  return problems;
}
