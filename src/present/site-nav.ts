// The pages of `gpuledger serve`, listed once, in one order: the report page and every other page show this list, so
// a page added here is reachable from all of them. The report written to a file has no server behind it and shows
// only its own sections.
import { html, type Markup } from './html.ts';
import type { Link } from './link.ts';

export const SITE_PAGES: readonly Link[] = [
  { label: 'Report', href: '/report/nightly' },
  { label: 'Explore', href: '/explore' },
  // the config's saved views, listed at the foot of /explore; each view's page is /explore/<name>
  { label: 'Saved views', href: '/explore#saved-views' },
  { label: 'Drill down', href: '/drill' },
  { label: 'Allocation', href: '/allocation' },
  { label: 'Budgets', href: '/budgets' },
  { label: 'Guardrails', href: '/guardrails' },
  { label: 'Runway', href: '/view/rpt_runway' },
  { label: 'Unit costs', href: '/view/rpt_unit_cost' },
  { label: 'Alerts', href: '/alerts' },
  { label: 'Views', href: '/views' },
  { label: 'SQL', href: '/sql' },
];

/** The site's navigation; the page at `current` (a path) is marked for assistive technology and the eye. */
export function siteNav(current: string): Markup {
  const here = (href: string) =>
    href === current || (href.startsWith('/report/') && current.startsWith('/report/')) || (href === '/explore#saved-views' && current.startsWith('/explore/')) ? 'page' : undefined;
  return html`<nav class="sections" aria-label="Pages">${SITE_PAGES.map((p) => html`<a href="${p.href}"${here(p.href) ? html` aria-current="page"` : ''}>${p.label}</a>`)}</nav>`;
}

/** A table of contents of the page's own sections. */
export function contentsNav(sections: readonly Link[]): Markup {
  return sections.length ? html`<nav class="sections" aria-label="Sections">${sections.map((s) => html`<a href="${s.href}">${s.label}</a>`)}</nav>` : html``;
}
