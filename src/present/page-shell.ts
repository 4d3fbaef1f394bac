// The shell of every HTML page gpuledger writes or serves: one document, its own style and script inline (allowed by
// hash in the Content-Security-Policy, nothing else), the heading with the SIMULATED DATA banner, the site's pages
// (served pages), the page's controls and table of contents, then the body.
import { html, trustedMarkup, type Markup } from './html.ts';
import type { Link } from './link.ts';
import { contentSecurityPolicy, PAGE_CSS, PAGE_JS } from './page-assets.ts';
import { contentsNav, siteNav } from './site-nav.ts';
import { SIMULATED_LABEL } from './simulated.ts';

export interface PageShell {
  title: string;
  /** Lines under the title (period, as-of). */
  lines: readonly string[];
  simulatedAccounts: readonly string[];
  /** The page's own sections, as a table of contents. */
  contents?: readonly Link[];
  /** A served page: its path, so the site's navigation marks it. A file has no site to go to. */
  servedAt?: string;
  /** Header controls under the navigation (a period picker). */
  controls?: Markup;
  body: Markup;
}

/** The whole document, as the text to write or send. */
export function pageDocument(p: PageShell): string {
  // a file's forms go nowhere; a served page's forms come back to the server (the policy is our own text, its quotes
  // stay quotes)
  const policy = contentSecurityPolicy(p.servedAt === undefined ? "'none'" : "'self'");
  const banner = p.simulatedAccounts.length ? html`<p class="banner" role="note">${SIMULATED_LABEL} – not a real account: ${p.simulatedAccounts.join(', ')}</p>` : '';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${trustedMarkup(policy)}"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="generator" content="gpuledger"><title>${p.title}</title><style>${trustedMarkup(PAGE_CSS)}</style></head>
<body><header class="page"><h1>${p.title}</h1>${p.lines.map((l) => html`<p class="sub">${l}</p>`)}${banner}${p.servedAt !== undefined ? siteNav(p.servedAt) : ''}${p.controls}${contentsNav(p.contents ?? [])}</header>
<main>${p.body}</main>
<script>${trustedMarkup(PAGE_JS)}</script></body></html>
`.text;
}
