import { describe, expect, it } from 'vitest';
import { breadcrumbs } from '../../src/present/breadcrumbs.ts';
import { CHART_CUE, chartRow } from '../../src/present/chart-figure.ts';
import { escapeText, html, trustedMarkup } from '../../src/present/html.ts';
import { hrefWith } from '../../src/present/link.ts';
import { pageDocument } from '../../src/present/page-shell.ts';
import { rowsNote } from '../../src/present/rows-note.ts';
import { section, sectionId } from '../../src/present/section.ts';
import { SITE_PAGES, siteNav } from '../../src/present/site-nav.ts';
import { tableTools } from '../../src/present/table-tools.ts';

const hostile = `<img src=x onerror="alert(1)">'&`;
const E = escapeText(hostile);

describe('page shell', () => {
  const page = (servedAt?: string) => pageDocument({ title: hostile, lines: [hostile], simulatedAccounts: [hostile], contents: [{ label: hostile, href: `#${hostile}` }], servedAt, controls: html`<form>${hostile}</form>`, body: html`<p>${hostile}</p>` });

  it('escapes every slot: title, lines, banner, contents, controls and body', () => {
    const out = page('/drill');
    expect(out).not.toContain('<img');
    expect(out).toContain(`<title>${E}</title>`);
    expect(out).toContain(`<h1>${E}</h1>`);
    expect(out).toContain(`<p class="sub">${E}</p>`);
    expect(out).toContain(`<p class="banner" role="note">SIMULATED DATA – not a real account: ${E}</p>`);
    expect(out).toContain(`<a href="#${E}">${E}</a>`);
    expect(out).toContain(`<form>${E}</form>`);
    expect(out).toContain(`<p>${E}</p>`);
    // the policy is our own text: its quotes stay quotes
    expect(out).toMatch(/content="default-src 'none'; img-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; base-uri 'none'; form-action 'self'"/);
  });

  it('lists the site\'s pages once, in one order, on served pages only, marking the current one', () => {
    const served = page('/drill');
    const labels = [...served.matchAll(/<nav class="sections" aria-label="Pages">(.*?)<\/nav>/g)].map((m) => [...m[1]!.matchAll(/>([^<]+)<\/a>/g)].map((a) => a[1]));
    expect(labels).toEqual([SITE_PAGES.map((p) => p.label)]);
    expect(served).toContain('<a href="/drill" aria-current="page">Drill down</a>');
    expect(siteNav('/report/finance-monthly').text).toContain('<a href="/report/nightly" aria-current="page">Report</a>');
    const file = page(undefined);
    expect(file).not.toContain('aria-label="Pages"');
    expect(file).toContain("form-action 'none'");
  });
});

describe('breadcrumbs, sections, tools, notes, charts, links', () => {
  it('writes a breadcrumb of links, the last one the current page, names escaped', () => {
    const out = breadcrumbs('Drill-down path', [{ label: 'All', href: '/drill' }, { label: hostile, href: `/drill?family=${hostile}` }]).text;
    expect(out).toBe(`<nav aria-label="Drill-down path"><p><a href="/drill">All</a> › <a href="/drill?family=${E}" aria-current="page">${E}</a></p></nav>`);
  });

  it('gives a section a stable id, its heading and lines escaped', () => {
    expect(sectionId('By GPU type')).toBe('s-by-gpu-type');
    const out = section({ id: 's-x', title: hostile, lines: [hostile], body: html`<p>b</p>` }).text;
    expect(out).toBe(`<section id="s-x" aria-labelledby="s-x-h"><h2 id="s-x-h">${E}</h2><p class="sub">${E}</p><p>b</p></section>\n`);
    expect(section({ id: 's-y', title: 't', body: '', landmark: false }).text).toBe('<section id="s-y"><h2>t</h2></section>\n');
  });

  it('says "the first N of M rows" only when rows are left out, and where the rest is', () => {
    expect(rowsNote({ shown: 10, total: 10 }).text).toBe('');
    expect(rowsNote({ shown: 1000, total: 12345, totalsOfAll: true, rest: 'the CSV has them all' }).text).toBe('<p class="note">The first 1,000 of 12,345 rows (the totals are of all of them); the CSV has them all.</p>');
    expect(rowsNote({ shown: 5, total: 'more', rest: hostile }).text).toBe(`<p class="note">The first 5 rows; more rows not shown; ${E}.</p>`);
  });

  it('offers the CSV from the server or from the rows the file holds', () => {
    expect(tableTools({ label: hostile, csv: { href: `/view/x.csv?a=${hostile}` } }).text).toContain(`<a class="button" href="/view/x.csv?a=${E}" download>Download CSV</a>`);
    expect(tableTools({ label: 'x', csv: { fileName: hostile, rows: 0 } }).text).toContain(`<button type="button" data-csv="${E}">Download CSV (no rows)</button>`);
    expect(tableTools({ label: hostile }).text).toContain(`aria-label="Filter the rows of ${E}"`);
  });

  it('embeds a chart\'s SVG as it is (trusted, our renderer) and its title as text', () => {
    expect(chartRow([]).text).toBe('');
    const out = chartRow([{ title: hostile, svg: trustedMarkup('<svg><rect/></svg>') }]).text;
    // the cue shows on a phone only, where the chart keeps its size and scrolls (page-assets.ts)
    expect(out).toBe(`<div class="charts"><figure class="chart" aria-label="${E}">${CHART_CUE.text}<svg><rect/></svg></figure></div>`);
  });

  it('builds a link\'s query from data, repeating a list and leaving out what is empty', () => {
    expect(hrefWith('/explore', { from: '2026-11-01', by: 'family', filter: ['family:pod', 'template:a&b'], none: undefined, empty: '' })).toBe('/explore?from=2026-11-01&by=family&filter=family%3Apod&filter=template%3Aa%26b');
    expect(hrefWith('/drill', {})).toBe('/drill');
  });
});
