// The way back up a drill-down: every level a link, the last one the page itself.
import { html, joinHtml, type Markup } from './html.ts';
import type { Link } from './link.ts';

/** `label` names the path for assistive technology ("Drill-down path"). */
export function breadcrumbs(label: string, path: readonly Link[]): Markup {
  const links = path.map((step, i) => html`<a href="${step.href}"${i === path.length - 1 ? html` aria-current="page"` : ''}>${step.label}</a>`);
  return html`<nav aria-label="${label}"><p>${joinHtml(links, ' › ')}</p></nav>`;
}
