// A section of a page: an anchor a link can point at, its heading, the lines under it, then its content.
import { html, type HtmlValue, type Markup } from './html.ts';
import type { Link } from './link.ts';

/** A section's id: stable across runs, so a link can point at it (#s-by-template). */
export function sectionId(name: string): string {
  return `s-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

export interface SectionInput {
  /** The section's id (sectionId of its name). */
  id: string;
  title: string;
  /** Lines under the heading, as text. */
  lines?: readonly string[];
  body: HtmlValue;
  /** Named by its heading, so assistive technology lists it among the page's regions (default true). */
  landmark?: boolean;
}

export function section(s: SectionInput): Markup {
  const open = s.landmark === false ? html`<section id="${s.id}"><h2>` : html`<section id="${s.id}" aria-labelledby="${s.id}-h"><h2 id="${s.id}-h">`;
  return html`${open}${s.title}</h2>${(s.lines ?? []).map((l) => html`<p class="sub">${l}</p>`)}${s.body}</section>
`;
}

/** A section computed on a page of its own: its heading, the lines under it and the link to that page. */
export function linkedSection(s: Omit<SectionInput, 'body'> & { link: Link }): Markup {
  return section({ ...s, body: html`<p class="section-link"><a href="${s.link.href}">${s.link.label}</a></p>` });
}
